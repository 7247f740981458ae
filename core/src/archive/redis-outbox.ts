/**
 * The page archive's hand-off on the core's cache Redis: one XADD per page to a stream capped at
 * `maxEntries` (exact MAXLEN), in a script that also says whether the cap pushed the oldest entry
 * out, so the drop is counted. It fails fast: a command waits at most `commandTimeoutMs` (also
 * while connecting, so the pages of a core's first moments are not lost to the connection), and it
 * runs after the call's answer, so a Redis outage costs archived pages, never a call's time.
 */
import { Redis } from 'ioredis';
import { DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES, PAGE_ARCHIVE_STREAM, toStreamFields, type PageArchiveOutbox } from '@retail/contract/page-archive-handoff';

/** KEYS[1] the stream; ARGV[1] the cap, then the entry's fields. Returns 1 when the oldest entry was dropped. */
const ADD_SCRIPT = `
local before = redis.call('XLEN', KEYS[1])
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', unpack(ARGV, 2))
if before >= tonumber(ARGV[1]) then return 1 end
return 0`;

export interface RedisOutboxOptions {
  readonly url: string;
  readonly maxEntries?: number;
  readonly stream?: string;
  readonly commandTimeoutMs?: number;
}

export function createRedisPageArchiveOutbox(options: RedisOutboxOptions): PageArchiveOutbox {
  const client = new Redis(options.url, { maxRetriesPerRequest: 0, commandTimeout: options.commandTimeoutMs ?? 1_000, retryStrategy: (times) => Math.min(100 * times, 2_000) });
  // Failures surface on each add (counted by the tap); the event itself must not crash the process.
  client.on('error', () => undefined);
  const max = String(options.maxEntries ?? DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES);
  const stream = options.stream ?? PAGE_ARCHIVE_STREAM;
  return {
    async add(page) {
      const fields = toStreamFields(page).map((v) => (typeof v === 'string' ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)));
      const dropped = await client.eval(ADD_SCRIPT, 1, stream, max, ...fields);
      return { dropped: dropped === 1 };
    },
    async close() {
      client.disconnect();
    },
  };
}
