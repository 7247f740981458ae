/**
 * The many-mode progress bar on stderr (cli-progress), only when stderr is a terminal: piped or
 * redirected output stays clean. It counts done, failed and the seconds a 429 made the run wait.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  done(ok: boolean): void;
  waiting(seconds: number): void;
  stop(): void;
}

const SILENT: Progress = { done: () => {}, waiting: () => {}, stop: () => {} };

export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, total: number): Progress {
  if (!stream.isTTY) return SILENT;
  const bar = new cliProgress.SingleBar(
    { stream, format: '{bar} {value}/{total} | {failed} failed{wait} | {eta_formatted} left', hideCursor: true, barsize: 30 },
    cliProgress.Presets.shades_classic,
  );
  let failed = 0;
  bar.start(total, 0, { failed, wait: '' });
  return {
    done(ok) {
      if (!ok) failed += 1;
      bar.increment(1, { failed, wait: '' });
    },
    waiting(seconds) {
      bar.update({ failed, wait: ` | rate limited: waiting ${seconds} s` });
    },
    stop: () => bar.stop(),
  };
}
