/**
 * The reparse queue's worker: one job at a time per replica (a job is a long walk, not many small
 * items); inside a job, REPARSE_CONCURRENCY pages are read by the core at once (run-reparse.ts).
 */
import type { JobSystem, JobWorker } from '../queue/index.js';
import { createReparseProcessor, type ReparseDependencies } from './run-reparse.js';
import { REPARSE_QUEUE } from './reparse-queue.js';

export function startReparseWorker(jobs: Pick<JobSystem, 'work'>, deps: ReparseDependencies): JobWorker {
  const processReparse = createReparseProcessor(deps);
  return jobs.work(REPARSE_QUEUE, async (run) => {
    try {
      await processReparse(run);
    } catch (error) {
      deps.log(`reparse ${run.data.jobId} attempt ${run.attempt} of ${run.maxAttempts} failed: ${(error as Error).message}`);
      throw error;
    }
  }, {
    concurrency: 1,
    // Out of attempts: the job says so and keeps its cursor and counts (what it corrected stays corrected).
    // (A job cancelled meanwhile keeps its cancel.)
    onFinalFailure: async (run, error) => {
      await deps.store.reparseJobs.setState(run.data.jobId, 'failed', error.message);
    },
  });
}
