/**
 * Records the pages the core hands off (docs/page-archive.md): read a batch, record each page (once
 * per page id), then acknowledge the batch. It starts by re-reading what it held unacknowledged, so
 * a watcher stopped between recording and acknowledging loses nothing and records nothing twice,
 * and returns to that pending list from time to time to take over what a vanished replica held.
 * A blocking stream read in a loop is how a Redis stream is consumed (BullMQ's workers wait the same
 * way); it is not a timer: it wakes when a page arrives, and on a failure it backs off and re-reads.
 */
import type { ArchivedPage, PageArchiveInbox } from '@retail/contract/page-archive-handoff';
import type { ArchivedPageRepository } from '../store/archived-pages.js';

export interface PageArchiveRecorderOptions {
  readonly inbox: PageArchiveInbox;
  readonly pages: Pick<ArchivedPageRepository, 'record'>;
  readonly log: (line: string) => void;
  readonly batchSize?: number;
  readonly blockMs?: number;
  /** Wait after a failed batch (the database or Redis down) before it is read again. */
  readonly retryMs?: number;
}

export interface PageArchiveRecorder {
  /** One batch: pending first, else new pages (waiting up to blockMs). How many pages it recorded for the first time. */
  drainOnce(pending: boolean): Promise<{ read: number; recorded: number }>;
  /** Runs until stop(). */
  start(): void;
  stop(): Promise<void>;
}

export function createPageArchiveRecorder(options: PageArchiveRecorderOptions): PageArchiveRecorder {
  const count = options.batchSize ?? 50;
  const blockMs = options.blockMs ?? 5_000;
  let stopped = false;
  let running: Promise<void> | undefined;
  let rest: { timer: NodeJS.Timeout; wake: () => void } | undefined;

  /** Records one page; a page the database refuses as data (SQLSTATE class 22 or 23) is logged and passed over, never retried forever. */
  async function recordOne(page: ArchivedPage): Promise<boolean> {
    try {
      return await options.pages.record(page);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !/^2[23]/.test(code)) throw error;
      options.log(`page archive: page ${page.id} (${page.url}) refused by the database and dropped: ${(error as Error).message}`);
      return false;
    }
  }

  async function drainOnce(pending: boolean) {
    const entries = await options.inbox.read({ pending, count, blockMs });
    let recorded = 0;
    for (const entry of entries) if (entry.page && (await recordOne(entry.page))) recorded++;
    await options.inbox.ack(entries.map((e) => e.entryId));
    return { read: entries.length, recorded };
  }

  async function loop() {
    let pending = true;
    let batches = 0;
    while (!stopped) {
      try {
        const { read } = await drainOnce(pending);
        // Back to the pending list when idle and every 50 batches under load: entries a vanished
        // replica held are claimed (after the inbox's idle time) even if no replica restarts.
        pending = pending ? read > 0 : read === 0 || ++batches % 50 === 0;
      } catch (error) {
        if (stopped) break;
        options.log(`page archive: recording failed, retrying: ${(error as Error).message}`);
        // What was read and not acknowledged is read again from the pending list.
        pending = true;
        await new Promise<void>((wake) => (rest = { timer: setTimeout(wake, options.retryMs ?? 2_000), wake }));
      }
    }
  }

  return {
    drainOnce,
    start() {
      running ??= loop();
    },
    async stop() {
      stopped = true;
      if (rest) {
        clearTimeout(rest.timer);
        rest.wake();
      }
      await options.inbox.close();
      await running;
    },
  };
}
