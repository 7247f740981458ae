/**
 * The processor of one chunk of a bulk job (queue job `<job id>:<chunk>`): take the chunk, hold its
 * units, run its items that have no result yet through the core, write their results, mark the
 * chunk SETTLING with its successes, settle the hold for them, record the charge.
 *
 * Exactly once, whatever crashes when:
 * - results are keyed (job, index) and written once; a re-run runs only the items without one;
 * - the hold id is (job, chunk, attempt): a re-run after a crash finds its hold (or holds anew once
 *   it expired) and the ledger settles each hold id once;
 * - the successes are charged by the attempt that marks the chunk SETTLING, counted from the stored
 *   results (an earlier failed attempt settled its own hold with 0, so its successes are charged here);
 * - a crash after the mark: the re-run finds the chunk SETTLING and settles the *same* hold for the
 *   same count, which the ledger answers from its memory of the first settle (kept for its settle
 *   window plus a margin, `resettleWithinMs`), so nothing is charged twice. Later than that the
 *   ledger may have forgotten, and settling again could charge twice: the chunk is recorded as
 *   charged 0 instead (its hold, if the first settle never came, has returned to the balance at
 *   expiry). So the worst a crash can do is leave one chunk unpaid, never charge it twice.
 * A chunk is a unit of the ledger: it holds all its items' units before any runs, so a job never
 * overdraws and never holds more than a chunk per running worker slot; one the balance cannot
 * cover stops the job (FAILED, INSUFFICIENT_UNITS) with what it did so far.
 */
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { BatchItemResultSchema, BatchLookupRequestSchema, ErrorReason } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared';
import type { Hold, Meter } from '@retail/metering';
import type { JobQueue, JobRun } from '../queue/index.js';
import type { JobRecord, StoredResult, WatchStore } from '../store/index.js';
import { chunkHold, chunkHoldId } from './chunk-hold.js';
import { itemOperation, operationOfResult, runItems } from './item-calls.js';
import { jobEndJobId, type ChunkJob, type JobEndJob } from './job-queues.js';

export interface ChunkDependencies {
  readonly store: WatchStore;
  readonly meter: Pick<Meter, 'admitAccount' | 'settle'>;
  readonly core: Pick<CoreClient, 'streamCall'>;
  /** Where a job's end is queued when the job has a webhook. */
  readonly jobEnds: JobQueue<JobEndJob>;
  /** Deadline of a chunk's BatchLookup stream (default DEFAULT_CHUNK_DEADLINE_MS). */
  readonly chunkDeadlineMs?: number;
  /** How long after the SETTLING mark a settle may be repeated (below the ledger's settle window + answer margin). */
  readonly resettleWithinMs?: number;
  readonly log?: (line: string) => void;
  readonly now?: () => Date;
}

/**
 * A chunk's BatchLookup must end well within its hold's lifetime (the ledger's 60 s): 50 items at the
 * marketplace's default pace of 5 requests a second per host take about 10 s.
 */
export const DEFAULT_CHUNK_DEADLINE_MS = 40_000;

/** The ledger keeps a settle's answer for its settle window (15 s) plus 32 s; stay well inside. */
export const DEFAULT_RESETTLE_WITHIN_MS = 30_000;

/** Thrown so the queue runs the chunk again later for the items the core could not serve now. */
export class RetryableChunkError extends Error {
  override readonly name = 'RetryableChunkError';
}

/** Queues the webhook of a job that has just ended (once: the store hands the ended record to one caller). */
export async function announceEnd(jobEnds: JobQueue<JobEndJob>, ended: JobRecord | null | undefined): Promise<void> {
  if (ended?.webhook) await jobEnds.add({ jobId: ended.id }, { id: jobEndJobId(ended.id), priority: 'normal' });
}

export function createChunkProcessor(deps: ChunkDependencies) {
  const { store, meter } = deps;
  const log = deps.log ?? (() => undefined);
  const now = deps.now ?? (() => new Date());
  const resettleWithinMs = deps.resettleWithinMs ?? DEFAULT_RESETTLE_WITHIN_MS;

  /** The operations of the chunk's successful results: what the settle charges, one unit each. */
  async function successfulOperations(jobId: string, indexes: readonly number[]): Promise<string[]> {
    const successes = await store.jobResults.successesAmong(jobId, indexes);
    return successes.map((s) => operationOfResult(fromBinary(BatchItemResultSchema, s.result)) ?? 'unknown');
  }

  /** Settles a SETTLING chunk's hold (or, too late to repeat safely, records nothing charged) and counts the chunk finished. */
  async function settleMarked(jobId: string, chunk: number, accountId: string, settling: { holdId: string; successes: number; markedAt: Date }, operations: readonly string[]): Promise<void> {
    let charged = 0;
    if (now().getTime() - settling.markedAt.getTime() <= resettleWithinMs) {
      charged = (await meter.settle(chunkHold(settling.holdId, accountId, operations), settling.successes, operations)).charged;
    } else {
      log(`job ${jobId} chunk ${chunk}: marked for settling ${now().getTime() - settling.markedAt.getTime()} ms ago, too late to repeat its settle safely; recorded as charged 0`);
    }
    const finished = await store.jobChunks.markSettled(jobId, chunk, charged);
    await announceEnd(deps.jobEnds, finished?.ended);
  }

  /** The job cannot go on (no units, no account): FAILED with why, this chunk skipped. */
  async function stopJob(jobId: string, chunk: number, reason: 'INSUFFICIENT_UNITS' | 'ACCOUNT_UNAVAILABLE'): Promise<void> {
    const stopped = await store.jobs.stop(null, jobId, 'FAILED', reason);
    await announceEnd(deps.jobEnds, stopped?.ended);
    const skipped = await store.jobChunks.skip(jobId, chunk);
    await announceEnd(deps.jobEnds, skipped?.ended);
    log(`job ${jobId} stopped at chunk ${chunk}: ${reason}`);
  }

  /** Runs the items without a result; the results to write, and how many the core asked to retry later. */
  async function runPending(run: JobRun<ChunkJob>, indexes: readonly number[], items: Uint8Array, answered: ReadonlySet<number>) {
    const list = fromBinary(BatchLookupRequestSchema, items).items;
    const pending = indexes.flatMap((index, i) => (answered.has(index) ? [] : [{ index, item: list[i]! }]));
    const outcomes = await runItems(deps.core, pending, {
      jobId: run.data.jobId, chunk: run.data.chunk, lastAttempt: run.attempt >= run.maxAttempts, deadlineMs: deps.chunkDeadlineMs ?? DEFAULT_CHUNK_DEADLINE_MS,
    });
    const results: StoredResult[] = [];
    let deferred = 0;
    for (const outcome of outcomes) {
      if (outcome.kind === 'retry') deferred++;
      else results.push({ index: outcome.result.index, ok: outcome.result.result.case !== 'error', result: toBinary(BatchItemResultSchema, outcome.result) });
    }
    return { results, deferred };
  }

  return async function runChunk(run: JobRun<ChunkJob>): Promise<void> {
    const { jobId, chunk } = run.data;
    const taken = await store.jobChunks.take(jobId, chunk);
    if (taken.kind === 'gone' || taken.kind === 'finished') return;
    if (taken.kind === 'settling') {
      await settleMarked(jobId, chunk, taken.accountId, taken.settling, await successfulOperations(jobId, taken.indexes));
      return;
    }
    const { job, indexes, items, answered } = taken.work;
    const holdId = chunkHoldId(jobId, chunk, run.attempt);
    const itemOperations = fromBinary(BatchLookupRequestSchema, items).items.map((item) => itemOperation(item)?.name ?? 'unknown');
    const admitted = await meter.admitAccount({ accountId: job.accountId, holdId, work: 'jobs', operations: itemOperations });
    if (!admitted.ok) {
      const reason = admitted.denial.reason;
      if (reason === ErrorReason.INSUFFICIENT_UNITS) return stopJob(jobId, chunk, 'INSUFFICIENT_UNITS');
      if (reason === ErrorReason.LEDGER_UNAVAILABLE) throw new RetryableChunkError(`job ${jobId} chunk ${chunk}: the unit ledger is unavailable`);
      return stopJob(jobId, chunk, 'ACCOUNT_UNAVAILABLE');
    }
    const hold: Hold = admitted.hold;
    try {
      const { results, deferred } = await runPending(run, indexes, items, answered);
      await store.jobChunks.writeResults(jobId, results);
      if (deferred > 0) throw new RetryableChunkError(`job ${jobId} chunk ${chunk}: ${deferred} item(s) to run again later`);
    } catch (error) {
      // Nothing of this attempt is charged: its successes are kept and charged by the attempt that completes the chunk.
      await meter.settle(hold, 0);
      throw error;
    }
    const settling = await store.jobChunks.markSettling(jobId, chunk, holdId);
    // Another run of this chunk got there first (a worker that lost its lock but lived on): the hold is its.
    if (!settling) return;
    await settleMarked(jobId, chunk, job.accountId, settling, await successfulOperations(jobId, indexes));
  };
}
