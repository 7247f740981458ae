/**
 * The hand-off of settled usage to the record: a settle pushes its row here and returns at once; rows
 * go to PostgreSQL in batches, retried with back-off while it is down, so an outage never blocks or
 * fails a call. The record skips a hold id it has (idempotent), so a row sent twice is written once.
 *
 * This one lives in the process's memory (the memory store, a Redis Cluster): what a crash loses is the
 * rows not yet written (a clean stop writes them all). A single-node ledger Redis hands off through a
 * stream instead (usage-stream.ts), which survives the process.
 */
import type { LateDebit, LedgerRecord, UsageRow } from './ledger-record.js';

export interface UsageHandoff {
  /** Takes a settled call's row; absent when the settle script already handed it off (usage-stream.ts). */
  readonly push?: (row: UsageRow) => void;
  /** Resolves once every row pushed so far is written (or the record is down: then rejects). */
  flush(): Promise<void>;
  /** Writes what waits (trying for at most `graceMs`), then stops. */
  close(graceMs?: number): Promise<void>;
}

export interface UsageHandoffOptions {
  /** With `writeUsage`, batches are written under the usage gate and their late debits handed to `lateDebits`. */
  readonly record: Pick<LedgerRecord, 'recordUsage'> & Partial<Pick<LedgerRecord, 'writeUsage'>>;
  readonly lateDebits?: (late: readonly LateDebit[]) => Promise<void>;
  readonly log: (line: string) => void;
  /** How long a row may wait for companions before a write (default 100 ms). */
  readonly batchDelayMs?: number;
  readonly maxBatch?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createUsageHandoff(options: UsageHandoffOptions): UsageHandoff {
  const batchDelayMs = options.batchDelayMs ?? 100;
  const maxBatch = options.maxBatch ?? 1_000;
  const queue: UsageRow[] = [];
  let writing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  /** Writes batches until the queue is empty; a failed batch stays at the head and is retried. */
  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      try {
        if (options.record.writeUsage) {
          const { late } = await options.record.writeUsage(async () => batch);
          if (late.length > 0) await options.lateDebits?.(late);
        } else {
          await options.record.recordUsage(batch);
        }
        queue.splice(0, batch.length);
        if (failures > 0) options.log(`usage record: written again after ${failures} failed attempts; ${queue.length} rows wait`);
        failures = 0;
      } catch (error) {
        failures++;
        if (failures === 1 || failures % 20 === 0) {
          options.log(`usage record: PostgreSQL write failed (${(error as Error).message}); ${queue.length} rows wait, retrying`);
        }
        if (closed) throw error;
        await sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  function start(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing ??= drain().finally(() => {
      writing = undefined;
    });
    return writing;
  }

  return {
    push(row) {
      queue.push(row);
      if (queue.length >= maxBatch) void start().catch(() => undefined);
      else if (!timer && !writing) timer = setTimeout(() => void start().catch(() => undefined), batchDelayMs);
    },
    async flush() {
      while (queue.length > 0) await start();
    },
    async close(graceMs = 5_000) {
      if (timer) clearTimeout(timer);
      const done = (async () => {
        await writing?.catch(() => undefined);
        closed = true;
        if (queue.length > 0) await drain();
      })();
      const expired = Symbol('expired');
      const outcome = await Promise.race([done.then(() => undefined, (error: unknown) => error), sleep(graceMs).then(() => expired)]);
      closed = true;
      if (outcome !== undefined) options.log(`usage record: ${queue.length} rows could not be written at stop`);
    },
  };
}
