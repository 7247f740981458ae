/**
 * The one-process composition of `npm start` against the replay server serving the project's own
 * fixture pages, on free ports: what the app, tracing and metrics tests run against.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadAppConfig } from '../../app/src/config.js';
import { type RunningStack, startStack } from '../../app/src/stack.js';
import { type ReplayServer, type ReplayServerOptions, createReplayServer } from '../replay/server.js';

export interface OneProcess {
  readonly stack: RunningStack;
  readonly replay: ReplayServer;
  stop(): Promise<void>;
}

/** `replay`: more of the replay server (a timeline, layout drift). */
export async function startOneProcess(extraEnv: Record<string, string> = {}, replayOptions: Partial<ReplayServerOptions> = {}): Promise<OneProcess> {
  const replay = await createReplayServer({ corpusDirs: [resolve(import.meta.dirname, '../fixtures/pages')], port: 0, host: '127.0.0.1', ...replayOptions });
  // The watcher's PGlite directory is one process's: each stack gets its own.
  const watcherDataDir = mkdtempSync(join(tmpdir(), 'one-process-watcher-'));
  const env = { PORT: '0', GRPC_PORT: '0', MARKETPLACE_ORIGIN: replay.origin, LOG_LEVEL: 'silent', WATCHER_DATA_DIR: watcherDataDir, ...extraEnv };
  const stack = await startStack({ ...loadAppConfig(env), marketplaceOrigin: replay.origin }, env);
  return {
    stack,
    replay,
    async stop() {
      await stack.stop();
      await replay.close();
      rmSync(watcherDataDir, { recursive: true, force: true });
    },
  };
}
