/**
 * One attempt of a job with the dead-letter hook, shared by both implementations so they decide
 * "final" the same way: the last attempt, or an UnrecoverableJobError on any attempt.
 */
import { UnrecoverableJobError, type JobProcessor, type JobRun, type WorkOptions } from './job-system.js';

export function isFinalFailure(run: JobRun<unknown>, error: Error): boolean {
  return error instanceof UnrecoverableJobError || run.attempt >= run.maxAttempts;
}

export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/** Runs the processor; on a final failure runs the hook before rethrowing (so the failure is recorded after it). */
export async function attempt<Data>(run: JobRun<Data>, processor: JobProcessor<Data>, options: WorkOptions<Data>): Promise<void> {
  try {
    await processor(run);
  } catch (thrown) {
    const error = asError(thrown);
    if (options.onFinalFailure && isFinalFailure(run, error)) await options.onFinalFailure(run, error);
    throw error;
  }
}
