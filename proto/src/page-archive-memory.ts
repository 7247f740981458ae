/**
 * The page archive's hand-off inside one process (`npm start`, tests): the Redis stream's semantics
 * (a bound that drops the oldest, entries delivered until acknowledged, a consumer that re-reads
 * what it held) over an array. Pages waiting here are lost if the process stops; the one-process
 * stack's watcher records them as they come, so what is lost is at most the last moment's pages.
 */
import { DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES, type ArchivedPage, type InboxEntry, type PageArchiveInbox, type PageArchiveOutbox } from './page-archive-handoff.js';

export interface MemoryPageArchiveStream {
  readonly outbox: PageArchiveOutbox;
  /** A consumer's view: a new inbox (a restarted watcher) re-reads what the previous one held unacknowledged. */
  inbox(): PageArchiveInbox;
  /** Entries neither acknowledged nor dropped. */
  size(): number;
}

interface Entry {
  readonly entryId: string;
  readonly page: ArchivedPage;
  delivered: boolean;
}

export function createMemoryPageArchiveStream(maxEntries = DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES): MemoryPageArchiveStream {
  const entries: Entry[] = [];
  let sequence = 0;
  let wake: (() => void) | undefined;
  const waitForEntry = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const outbox: PageArchiveOutbox = {
    async add(page) {
      entries.push({ entryId: String(++sequence), page, delivered: false });
      const dropped = entries.length > maxEntries;
      if (dropped) entries.shift();
      wake?.();
      return { dropped };
    },
    async close() {},
  };
  return {
    outbox,
    size: () => entries.length,
    inbox() {
      let closed = false;
      const toEntry = (e: Entry): InboxEntry => ({ entryId: e.entryId, page: e.page });
      return {
        async read({ pending, count, blockMs }) {
          if (pending) return entries.filter((e) => e.delivered).slice(0, count).map(toEntry);
          if (!closed && !entries.some((e) => !e.delivered)) await waitForEntry(blockMs);
          const fresh = entries.filter((e) => !e.delivered).slice(0, count);
          for (const e of fresh) e.delivered = true;
          return fresh.map(toEntry);
        },
        async ack(entryIds) {
          const done = new Set(entryIds);
          for (let i = entries.length - 1; i >= 0; i--) if (done.has(entries[i]!.entryId)) entries.splice(i, 1);
        },
        async close() {
          closed = true;
          wake?.();
        },
      };
    },
  };
}

const PROCESS_STREAM = Symbol.for('retail.page-archive.memory-stream');

/** The one in-memory stream of this process, shared by the core and the watcher it runs beside. */
export function processPageArchiveStream(): MemoryPageArchiveStream {
  const holder = globalThis as { [PROCESS_STREAM]?: MemoryPageArchiveStream };
  return (holder[PROCESS_STREAM] ??= createMemoryPageArchiveStream());
}
