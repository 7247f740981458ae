/**
 * Queuing a re-parse job, the one way both callers do it: the admin CLI when it opens the database
 * itself, and the watcher's ReparseService when the CLI asks a running watcher (service/reparse-service.ts).
 * The row first (the database refuses a second active job over the same marketplace and kind,
 * store/reparse-jobs.ts), then the job on the job system; a row whose job could not be queued is
 * failed at once, so it does not hold the marketplace and kind for a job nothing will run.
 */
import type { JobSystem } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import type { ReparseJobDraft, ReparseJobRecord } from '../store/reparse-jobs.js';
import { REPARSE_QUEUE } from './reparse-queue.js';

/** The kinds re-parsing re-derives history from: history points come from product pages only. */
export const REPARSED_KINDS: readonly string[] = ['product'];

/** A cancelled job's error (it ends as failed; what it corrected stays corrected). */
export const CANCELLED_BY_OPERATOR = 'cancelled by the operator';

export type ReparseStart = { readonly queued: true } | { readonly queued: false; readonly refusal: string };

/** What a refused start says, worded for the operator: the active job, and what to do. */
export function refusalOf(draft: ReparseJobDraft, active: ReparseJobRecord | undefined): string {
  if (!active) return `a reparse job over ${draft.domain} ${draft.kind} was active a moment ago and has just ended: run the command again`;
  const window = `since ${active.since.toISOString()}${active.until ? ` until ${active.until.toISOString()}` : ''}`;
  return `refused: reparse job ${active.id} over ${draft.domain} ${draft.kind} is ${active.state} (${window}, ${active.counts.pages} page(s) done); `
    + `one job per marketplace and kind at a time. Follow it with \`reparse status ${active.id}\` and run this one when it ends, `
    + `or end it with \`reparse cancel ${active.id}\` (what it corrected stays corrected)`;
}

export async function startReparseJob(store: Pick<WatchStore, 'reparseJobs'>, jobs: Pick<JobSystem, 'queue'>, draft: ReparseJobDraft): Promise<ReparseStart> {
  const created = await store.reparseJobs.create(draft);
  if (!created.created) return { queued: false, refusal: refusalOf(draft, created.active) };
  try {
    await jobs.queue(REPARSE_QUEUE).add({ jobId: draft.id }, { id: draft.id });
  } catch (error) {
    await store.reparseJobs.setState(draft.id, 'failed', `could not be queued: ${(error as Error).message}`);
    throw error;
  }
  return { queued: true };
}
