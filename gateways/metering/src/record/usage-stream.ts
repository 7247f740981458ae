/**
 * The durable hand-off of settled usage on a single-node ledger Redis: the settle script appends each
 * charged call to a stream in the same step as the charge (lua.ts, SETTLE), and every metering process
 * with a record consumes it in one consumer group: read a batch, write it to PostgreSQL (idempotent by
 * hold id), then acknowledge and delete it. A PostgreSQL outage leaves the entries in the stream (calls
 * go on being charged) and a consumer that dies leaves its delivered entries pending, claimed by another
 * (or by itself once restarted) after `claimIdleMs`; written twice, they are stored once.
 *
 * A Redis stream with a consumer group, rather than BullMQ: the entry has to be written by the settle
 * script itself, atomically with the charge, and a BullMQ job cannot be added from inside a script.
 */
import { Redis } from 'ioredis';
import type { UsageInterface } from '../api.js';
import type { LateDebit, LedgerRecord, UsageRow, WrittenUsage } from './ledger-record.js';
import type { UsageHandoff } from './usage-handoff.js';

export const USAGE_STREAM_GROUP = 'ledger-record';

export interface UsageStreamOptions {
  readonly redisUrl: string;
  readonly stream: string;
  /**
   * With `writeUsage`, each batch is read and written under the usage gate (usage-writes.ts) and its
   * late debits go to `lateDebits`; with `recordUsage` alone, read then written.
   */
  readonly record: Pick<LedgerRecord, 'recordUsage'> & Partial<Pick<LedgerRecord, 'writeUsage'>>;
  /** Takes the late debits of a batch written (the ledger's lateDebit); before the batch is acknowledged. */
  readonly lateDebits?: (late: readonly LateDebit[]) => Promise<void>;
  readonly log: (line: string) => void;
  /** This process's name in the group (default: a random one per start). */
  readonly consumer?: string;
  readonly batch?: number;
  /** How long a read waits for new entries (default 1 s). */
  readonly blockMs?: number;
  /** Entries delivered to a consumer and not acknowledged for this long are taken over (default 30 s). */
  readonly claimIdleMs?: number;
  /** False: only `flush` and `close` (another process consumes); default true. */
  readonly consume?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type StreamEntry = [id: string, fields: string[]];

/** Reading the stream failed (inside the gated write): not a PostgreSQL failure to retry as one. */
class StreamReadError extends Error {
  constructor(cause: unknown) {
    super((cause as Error)?.message ?? String(cause), { cause });
  }
}

/** Whether stream id `a` ("ms-seq") comes after `b`. */
function streamIdAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am > bm || (am === bm && as > bs);
}

/**
 * The settle script's entry: field `r`, tab-separated, the hold id last, then `e`, the account's restore
 * epoch (lua.ts, SETTLE; absent in entries written before epochs: 0).
 */
function rowOf(fields: string[]): UsageRow {
  const parts = (fields[1] ?? '').split('\t');
  return {
    accountId: parts[0] ?? '', keyId: parts[1] ?? '', iface: (parts[2] ?? 'rest') as UsageInterface,
    operations: (parts[3] ?? '').split(',').filter(Boolean), units: Number(parts[4]), at: Number(parts[5]),
    holdId: parts.slice(6).join('\t'), epoch: fields[2] === 'e' ? Number(fields[3]) : 0,
  };
}

/** Starts consuming; the returned hand-off takes no rows (the settle script wrote the entry). */
export function startUsageStream(options: UsageStreamOptions): UsageHandoff {
  const { stream, record, log } = options;
  const consumer = options.consumer ?? `c-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const batch = options.batch ?? 500;
  const blockMs = options.blockMs ?? 1_000;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  // Its own connection: a blocking read must not hold up the ledger's commands.
  // Commands wait for the connection (offline queue): a ledger down at start-up is not fatal here either.
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  let stopped = false;
  let failures = 0;
  /** The batch this consumer has read and not yet written: a restore must wait for it (flush). */
  let inFlight: Promise<number> | undefined;

  const createGroup = async () => {
    try {
      await redis.xgroup('CREATE', stream, USAGE_STREAM_GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!/BUSYGROUP/.test((error as Error).message)) throw error;
    }
  };

  /** Writes rows (read under the gate by `read`), hands their late debits over; the entries written. */
  async function write(read: () => Promise<StreamEntry[]>): Promise<StreamEntry[]> {
    let entries: StreamEntry[] = [];
    let written: WrittenUsage | undefined;
    if (record.writeUsage) {
      written = await record.writeUsage(async () => {
        entries = await read();
        return entries.map(([, fields]) => rowOf(fields));
      });
    } else {
      entries = await read();
      if (entries.length > 0) await record.recordUsage(entries.map(([, fields]) => rowOf(fields)));
    }
    if (written && written.late.length > 0) await options.lateDebits?.(written.late);
    return entries;
  }

  /**
   * Writes the entries `read` takes to the record and acknowledges them; keeps retrying while the record
   * is down. A batch whose write failed after its read is written again as it was (the gate is not held
   * then: a restore in between makes its rows late debits, usage-writes.ts).
   */
  async function settleEntries(read: () => Promise<StreamEntry[]>): Promise<number> {
    let entries: StreamEntry[] | undefined;
    for (;;) {
      try {
        entries = await write(entries ? async () => entries! : async () => {
          try {
            return (entries = await read());
          } catch (error) {
            throw new StreamReadError(error);
          }
        });
        break;
      } catch (error) {
        // The stream's trouble (a flushed Redis: NOGROUP) is the loop's to handle, not a write to retry.
        if (error instanceof StreamReadError) throw error.cause;
        failures++;
        if (failures === 1 || failures % 20 === 0) log(`usage record: PostgreSQL write failed (${(error as Error).message}); ${entries?.length ?? 'the next'} rows wait in ${stream}, retrying`);
        if (stopped) return 0; // left pending: the next consumer takes them over
        await sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
    if (failures > 0) log(`usage record: written again after ${failures} failed attempts`);
    failures = 0;
    if (entries.length === 0) return 0;
    const ids = entries.map(([id]) => id);
    await redis.multi().xack(stream, USAGE_STREAM_GROUP, ...ids).xdel(stream, ...ids).exec();
    return entries.length;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        await createGroup();
        break;
      } catch {
        await sleep(1_000);
      }
    }
    let lastClaim = 0;
    // First what this consumer name was given and never acknowledged (a restart under the same name).
    let cursor = '0';
    const readBatch = async (): Promise<StreamEntry[]> => {
      // Not blocking: with the gate, the read happens inside the write's transaction.
      const reply = (await redis.xreadgroup('GROUP', USAGE_STREAM_GROUP, consumer, 'COUNT', batch, 'STREAMS', stream, cursor)) as Array<[string, StreamEntry[]]> | null;
      return (reply?.[0]?.[1] ?? []).filter((entry) => entry[1] !== null);
    };
    while (!stopped) {
      try {
        if (Date.now() - lastClaim >= claimIdleMs / 2) {
          lastClaim = Date.now();
          const [, claimed] = (await redis.xautoclaim(stream, USAGE_STREAM_GROUP, consumer, claimIdleMs, '0-0', 'COUNT', batch)) as [string, StreamEntry[]];
          const taken = claimed.filter((entry) => entry[1] !== null);
          if (taken.length > 0) await settleEntries(async () => taken);
        }
        // The newest entry before the read: when the read finds nothing, wait for one after it.
        const [newest] = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1)) as StreamEntry[];
        inFlight = settleEntries(readBatch).then((n) => {
          if (cursor === '0' && n === 0) cursor = '>';
          return n;
        }).finally(() => {
          inFlight = undefined;
        });
        const taken = await inFlight;
        if (taken === 0 && cursor === '>' && !stopped) {
          await redis.xread('BLOCK', blockMs, 'STREAMS', stream, newest?.[0] ?? '0-0');
        }
      } catch (error) {
        if (stopped) break;
        if (/NOGROUP/.test((error as Error).message)) {
          // A flushed or replaced Redis: the group again, from the stream's first entry.
          if (await createGroup().then(() => true, () => false)) continue;
        } else {
          log(`usage record: reading ${stream} failed (${(error as Error).message}); retrying`);
        }
        await sleep(1_000);
      }
    }
  }

  const running = options.consume === false ? Promise.resolve() : loop();

  return {
    async flush() {
      // Until every entry there now is written (entries are deleted once written, so the oldest left
      // is newer), at most a few seconds: under load the stream is never empty.
      // A batch read before a flush of the Redis is no longer in the stream: wait for it by hand.
      await inFlight?.catch(() => undefined);
      const [newest] = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1)) as StreamEntry[];
      if (!newest) return;
      const until = Date.now() + 5_000;
      for (;;) {
        const [oldest] = (await redis.xrange(stream, '-', '+', 'COUNT', 1)) as StreamEntry[];
        if (!oldest || streamIdAfter(oldest[0], newest[0])) return;
        if (Date.now() > until) throw new Error(`${stream} still holds entries from before the flush`);
        await sleep(20);
      }
    },
    async close(graceMs = 5_000) {
      // A clean stop writes what waits first (this process's and, while it waits, anyone's), for at most graceMs.
      const until = Date.now() + graceMs;
      while (Date.now() < until && redis.status === 'ready' && (await redis.xlen(stream).catch(() => 0)) > 0) await sleep(20);
      stopped = true;
      // Unblocks the read; what was delivered and not acknowledged stays pending for the next consumer.
      redis.disconnect();
      await running;
    },
  };
}
