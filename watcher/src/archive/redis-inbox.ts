/**
 * The watcher's side of the page archive's hand-off on the core's cache Redis: the stream read as
 * one consumer group by every watcher replica, each entry acknowledged only once recorded. A
 * replica re-reads what it held unacknowledged (a crash between recording and acknowledging), and
 * claims what a vanished replica held past `claimIdleMs`, so nothing waits on a replica that never
 * comes back. A blocking read holds its connection, hence a connection of its own.
 */
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { PAGE_ARCHIVE_GROUP, PAGE_ARCHIVE_STREAM, fromStreamFields, type InboxEntry, type PageArchiveInbox } from '@retail/contract/page-archive-handoff';

export interface RedisInboxOptions {
  readonly url: string;
  /** This replica's name in the group (its host name: a pod's name). */
  readonly consumer?: string;
  readonly claimIdleMs?: number;
  readonly stream?: string;
}

type RawEntry = [id: Buffer, fields: Buffer[] | null];

/** `meta` is text; `body` stays bytes. */
const decodeFields = (fields: Buffer[]) => fields.map((f, i) => (i % 2 === 0 || fields[i - 1]?.toString() === 'meta' ? f.toString() : f));
const toEntries = (raw: RawEntry[]): InboxEntry[] => raw.map(([id, fields]) => ({ entryId: id.toString(), page: fields ? fromStreamFields(decodeFields(fields)) : undefined }));

export async function createRedisPageArchiveInbox(options: RedisInboxOptions): Promise<PageArchiveInbox> {
  const client = new Redis(options.url, { maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  const stream = options.stream ?? PAGE_ARCHIVE_STREAM;
  const consumer = options.consumer ?? hostname();
  const claimIdleMs = options.claimIdleMs ?? 60_000;
  // From the stream's start: pages the core archived before any watcher ran are recorded too.
  await client.xgroup('CREATE', stream, PAGE_ARCHIVE_GROUP, '0', 'MKSTREAM').catch((error: Error) => {
    if (!error.message.includes('BUSYGROUP')) throw error;
  });

  return {
    async read({ pending, count, blockMs }) {
      if (pending) {
        const own = (await client.callBuffer('XREADGROUP', 'GROUP', PAGE_ARCHIVE_GROUP, consumer, 'COUNT', count, 'STREAMS', stream, '0')) as Array<[Buffer, RawEntry[]]> | null;
        const held = toEntries(own?.[0]?.[1] ?? []);
        if (held.length > 0) return held;
        // XAUTOCLAIM answers [next, entries, deleted ids]: the deleted ones were trimmed unrecorded.
        const claimed = (await client.callBuffer('XAUTOCLAIM', stream, PAGE_ARCHIVE_GROUP, consumer, claimIdleMs, '0-0', 'COUNT', count)) as [Buffer, RawEntry[], Buffer[]?];
        return toEntries(claimed[1]);
      }
      const fresh = (await client.callBuffer('XREADGROUP', 'GROUP', PAGE_ARCHIVE_GROUP, consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', stream, '>')) as Array<[Buffer, RawEntry[]]> | null;
      return toEntries(fresh?.[0]?.[1] ?? []);
    },
    async ack(entryIds) {
      if (entryIds.length === 0) return;
      // Acknowledged and deleted: a recorded page has no reason to stay in the cache Redis.
      await client.multi().xack(stream, PAGE_ARCHIVE_GROUP, ...entryIds).xdel(stream, ...entryIds).exec();
    },
    async close() {
      client.disconnect();
    },
  };
}
