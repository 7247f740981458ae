/**
 * Re-parsing runs as a job of the watcher's job system (BullMQ on the queue Redis; the in-memory twin
 * without one), beside the refreshes and the housekeeping. Not a bulk job of the JobService: those
 * are a customer's lookups, owned by an account, charged per item through the ledger and streamed as
 * results; a re-parse is the operator's repair of shared history, charges nobody, and its results are
 * corrections in PostgreSQL. What the job system gives it is what it needs: one replica runs it,
 * a crashed run is run again (after its lock expires) and a failed one retried.
 */
import { defineQueue } from '../queue/index.js';

export interface ReparseJob {
  /** The reparse_jobs row: what to walk, and the cursor a re-run resumes from. */
  readonly jobId: string;
}

/** A failed run (the core unreachable) is tried again, resuming at its cursor. */
export const REPARSE_QUEUE = defineQueue<ReparseJob>('watcher-reparse', { retryDelaysMs: [5_000, 30_000, 120_000, 600_000] });

/** Pages read per batch from the archive (bodies included: ~150 KiB each for real pages). */
export const REPARSE_BATCH = 20;

/**
 * Pages of one job the core reads at once (REPARSE_CONCURRENCY). The core parses on its worker pool,
 * PARSE_WORKERS threads (its default: the CPUs less one, 1 to 4): four keeps a default pool of any
 * size busy, and beyond the pool's size a page only waits in the core. Raise it with PARSE_WORKERS or
 * the number of core replicas.
 */
export const DEFAULT_REPARSE_CONCURRENCY = 4;
