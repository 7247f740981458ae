/**
 * What bench/watch-schedule.ts and its worker processes (watch-schedule-worker.ts) say to each other
 * over the IPC channel of `fork`, and the environment a worker is started with. Declared once here so
 * both sides agree.
 */

/** Environment of a worker: the same variables a watcher replica reads, plus the bench's own. */
export interface WorkerEnvironment {
  /** Queue and ledger on one non-evicting Redis (createJobSystemFromEnv, createMeteringFromEnv). */
  readonly QUEUE_REDIS_URL: string;
  readonly LEDGER_REDIS_URL: string;
  readonly DATABASE_URL: string;
  readonly CORE_ADDRESS: string;
  readonly CORE_SERVICE_TOKEN: string;
  /** Refresh jobs one worker process runs at once. */
  readonly REFRESH_CONCURRENCY: string;
}

/** One run as the worker saw it: product ASIN, its slot (due time), attempt, start − due and its duration in ms. */
export type RunStart = readonly [asin: string, dueAt: number, attempt: number, lagMs: number, durationMs: number];

/** One snapshot read (a GetProduct through the core), attributed to the run that made it. */
export type ReadOfRun = readonly [asin: string, dueAt: number];

/** What a worker did between the parent's `mark` and `report`. */
export interface WorkerReport {
  readonly pid: number;
  /** process.cpuUsage() user + system over the span, µs. */
  readonly cpuUs: number;
  readonly spanMs: number;
  /** Runs that finished (or failed) in the span. */
  readonly runs: readonly RunStart[];
  readonly reads: readonly ReadOfRun[];
  /** Runs that finished without an error. */
  readonly completed: number;
  /** Runs that threw, by error name and message. */
  readonly failures: Readonly<Record<string, number>>;
}

/** What a worker did in its whole life, sent when it stops (checked against PostgreSQL and the ledger). */
export interface WorkerTotals {
  readonly pid: number;
  readonly reads: number;
  /** Units the worker's settles charged (one per watch served). */
  readonly unitsCharged: number;
}

export type ToWorker = { readonly type: 'mark' } | { readonly type: 'report' } | { readonly type: 'stop' };

export type FromWorker =
  | { readonly type: 'ready'; readonly schedulesSynced: number; readonly syncMs: number }
  | { readonly type: 'report'; readonly report: WorkerReport }
  | { readonly type: 'stopped'; readonly totals: WorkerTotals }
  | { readonly type: 'failed'; readonly message: string };
