/**
 * A reparse job's report as the admin CLI prints it, the same whichever way the command reached the
 * job (the database, or a running watcher's ReparseService): scripts read one shape.
 */
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ReparseJob } from '@retail/contract';
import type { ReparseJobRecord, ReparseJobState } from '../store/reparse-jobs.js';

/** How often a waiting command reads the job's report. */
export const POLL_MS = 500;

/** The report as printed: what the job walked and what it corrected, per field. */
export function reportOf(job: Omit<ReparseJobRecord, 'cursor'>) {
  return {
    id: job.id,
    state: job.state,
    domain: job.domain,
    kind: job.kind,
    since: job.since.toISOString(),
    ...(job.until ? { until: job.until.toISOString() } : {}),
    force: job.force,
    ...job.counts,
    corrected: job.fields,
    ...(job.error ? { error: job.error } : {}),
    ...(job.finishedAt ? { finishedAt: job.finishedAt.toISOString() } : {}),
  };
}

const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

/** The watcher's ReparseJob message as the record the report is made from (service/reparse-service.ts writes it from one). */
export function recordOfMessage(job: ReparseJob): Omit<ReparseJobRecord, 'cursor'> {
  const until = dateOf(job.until);
  const finishedAt = dateOf(job.finishedAt);
  return {
    id: job.id, state: job.state as ReparseJobState, domain: job.marketplace, kind: job.kind, since: dateOf(job.since)!, ...(until ? { until } : {}), force: job.force,
    counts: { pages: job.pages, reparsed: job.reparsed, skipped: job.skipped, unreadable: job.unreadable, withoutPoint: job.withoutPoint, pointsRevised: job.pointsRevised },
    // Sorted by name, as the store lists them.
    fields: Object.fromEntries(Object.entries(job.corrected).sort(([a], [b]) => a.localeCompare(b))),
    ...(job.error ? { error: job.error } : {}),
    createdAt: dateOf(job.createdAt)!,
    ...(finishedAt ? { finishedAt } : {}),
  };
}
