/**
 * Our job ids on BullMQ. BullMQ refuses custom ids that are integers (they would collide with the
 * ids it generates) or contain ':' (its key separator), while ours are things like `US:B0XXXXXXXX`
 * or an event id. A reversible encoding keeps every id usable on both implementations.
 */

/** Custom ids carry this prefix (never an integer); ':' and '%' are percent-encoded. */
const CUSTOM = 'id-';

export function toBullJobId(id: string): string {
  return CUSTOM + id.replaceAll('%', '%25').replaceAll(':', '%3A');
}

/** The run id of a BullMQ job id: a custom id decoded, a generated id as it is. */
export function fromBullJobId(jobId: string): string {
  if (!jobId.startsWith(CUSTOM)) return jobId;
  return jobId.slice(CUSTOM.length).replaceAll('%3A', ':').replaceAll('%25', '%');
}

/** A scheduler's run is `repeat:<schedulerId>:<dueAt>` (addJobScheduler / updateJobScheduler scripts). */
export function dueAtOfScheduledJob(jobId: string): number {
  const dueAt = Number(jobId.slice(jobId.lastIndexOf(':') + 1));
  if (!Number.isSafeInteger(dueAt)) throw new Error(`not a scheduled run's job id: ${jobId}`);
  return dueAt;
}
