/**
 * A job record (the store's) as the retail.v1.Job message, and as the JSON body of its end webhook.
 * Enum values share their names with the record's strings (JOB_STATUS_DONE ↔ 'DONE'), so each
 * mapping is the generated enum read by name.
 */
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Job, JobSchema, JobStatus, JobStopReason, renderMessage, WebhookDeliveryStatus, type WireObject } from '@retail/contract';
import type { JobRecord } from '../store/index.js';

/**
 * The job as its owner sees it; `secret` only in the response that created the job; `retentionMs`
 * (the store's) how long it is kept once ended, which a client needs while it runs (an MCP task's ttl).
 */
export function jobMessage(job: JobRecord, { secret, retentionMs }: { secret?: string; retentionMs?: number } = {}): Job {
  return create(JobSchema, {
    id: job.id,
    status: JobStatus[job.status],
    total: job.total,
    done: job.done,
    failed: job.failed,
    unitsCharged: job.unitsCharged,
    createdAt: timestampFromDate(job.createdAt),
    ...(job.finishedAt && { finishedAt: timestampFromDate(job.finishedAt) }),
    ...(job.label !== undefined && { label: job.label }),
    ...(job.stopReason !== undefined && { stopReason: JobStopReason[job.stopReason] }),
    ...(job.expiresAt && { expiresAt: timestampFromDate(job.expiresAt) }),
    ...(retentionMs !== undefined && { retentionSeconds: BigInt(Math.round(retentionMs / 1000)) }),
    ...(job.webhook && {
      webhook: {
        url: job.webhook.url,
        ...(secret !== undefined && { secret }),
        ...(job.webhook.status !== undefined && { deliveryStatus: WebhookDeliveryStatus[job.webhook.status] }),
        attemptCount: job.webhook.attempts,
        ...(job.webhook.lastError !== undefined && { lastError: job.webhook.lastError }),
      },
    }),
  });
}

/** The Standard Webhooks message of a job's end: its id (the same on every attempt) and its body. */
export function jobEndMessage(job: JobRecord): { id: string; payload: { type: 'JOB_ENDED'; job: WireObject } } {
  // The receiver is told what happened to the job; its own URL and the delivery's state are not news to it.
  const message = jobMessage(job);
  message.webhook = undefined;
  return { id: `${job.id}:end`, payload: { type: 'JOB_ENDED', job: renderMessage(JobSchema, message) } };
}
