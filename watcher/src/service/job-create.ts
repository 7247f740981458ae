/**
 * CreateJob: check the call (1 to 100,000 items with the refused ones, each refused item once, at a
 * position of the job, with an INVALID_ARGUMENT error; the label; the webhook URL), check each item
 * against its request's declared rules (a malformed item becomes that item's INVALID_ARGUMENT result,
 * never the call's error, and never reaches the core), cut the rest into chunks, store the job with
 * a webhook secret sealed bound to its id, and queue the chunks. Answers at once; the secret leaves
 * only in this response. A job that cannot be queued is stopped (FAILED, INTERNAL) and the call
 * answers INTERNAL, so a client's retry makes a new job and never a second copy running.
 */
import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  type BatchItem, BatchItemResultSchema, BatchItemSchema, BatchLookupRequestSchema, type CreateJobRequest, CreateJobRequestSchema, type CreateJobResponse,
  CreateJobResponseSchema, type ErrorDetail, ErrorDetailSchema, ErrorReason, JOB_MAX_ITEMS,
} from '@retail/contract';
import { announceEnd, errorResult, itemCaseName, itemOperation, jobMessage, queueChunks } from '../jobs/index.js';
import type { JobChunkDraft, StoredResult } from '../store/index.js';
import { generateWebhookSecret, sealSecret } from '../webhooks/index.js';
import type { CallContext } from './deps.js';
import { invalidArgument, WatchServiceError } from './errors.js';
import type { JobParts } from './job-parts.js';
import { checkDeclaredRules, webhookUrlOf } from './request-checks.js';

/** The most items one job may have (the contract's limit; a gRPC message of that many is a few MB). */
export const MAX_JOB_ITEMS = JOB_MAX_ITEMS;
/** A refused item's message is the gateway's rule message: a sentence, not a document. */
const MAX_REJECTION_MESSAGE = 1000;

/** What the declared rules of the item's request say about it, as the item's error; null when it passes. */
function itemProblem(item: BatchItem): ErrorDetail | null {
  const op = itemOperation(item);
  if (!op || item.request.value === undefined) return create(ErrorDetailSchema, { reason: ErrorReason.INVALID_ARGUMENT, message: 'the item names no operation' });
  try {
    checkDeclaredRules(op.request, item.request.value);
    return null;
  } catch (error) {
    if (!(error instanceof WatchServiceError)) throw error;
    return create(ErrorDetailSchema, { reason: error.reason, message: error.message, fieldPath: [...error.fieldPath] });
  }
}

/** A refused item's stored result; `operation`: the BatchItem case it named, if any. */
const refusedResult = (index: number, { error, operation }: Rejection): StoredResult =>
  ({ index, ok: false, result: toBinary(BatchItemResultSchema, errorResult(index, error, operation)) });

type Rejection = { readonly error: ErrorDetail; readonly operation: string };
const ITEM_CASES = new Set(BatchItemSchema.oneofs[0]!.fields.map((field) => field.name));

/** The refused items, checked: their positions, errors and named operations as the gateway gave them. */
function checkedRejections(request: CreateJobRequest, total: number): Map<number, Rejection> {
  const rejected = new Map<number, Rejection>();
  request.rejectedItems.forEach((item, i) => {
    const at = (field: string) => ['rejected_items', String(i), field];
    if (item.index >= total) throw invalidArgument(`rejectedItems[${i}].index must be below the number of items (${total})`, ...at('index'));
    if (rejected.has(item.index)) throw invalidArgument(`rejectedItems[${i}].index repeats item ${item.index}`, ...at('index'));
    const error = item.error;
    if (!error || error.reason !== ErrorReason.INVALID_ARGUMENT || error.message.length === 0 || error.message.length > MAX_REJECTION_MESSAGE) {
      throw invalidArgument(`rejectedItems[${i}].error must be an INVALID_ARGUMENT error with a message of at most ${MAX_REJECTION_MESSAGE} characters`, ...at('error'));
    }
    if (item.operation !== '' && !ITEM_CASES.has(item.operation)) throw invalidArgument(`rejectedItems[${i}].operation must name a BatchItem case or be empty`, ...at('operation'));
    rejected.set(item.index, { error: create(ErrorDetailSchema, { reason: error.reason, message: error.message, fieldPath: [...error.fieldPath] }), operation: item.operation });
  });
  return rejected;
}

export function createJobHandler(parts: JobParts) {
  return async (request: CreateJobRequest, context: CallContext): Promise<CreateJobResponse> => {
    checkDeclaredRules(CreateJobRequestSchema, request);
    const total = request.items.length + request.rejectedItems.length;
    if (total < 1 || total > MAX_JOB_ITEMS) throw invalidArgument(`a job has 1 to ${MAX_JOB_ITEMS} items; got ${total}`, 'items');
    const rejected = checkedRejections(request, total);
    const webhookUrl = request.webhook ? webhookUrlOf(request.webhook.url, parts.webhooks.policy) : undefined;

    // The items fill the positions the refused ones leave, in order; a malformed one is refused here.
    const refused: StoredResult[] = [...rejected].map(([index, rejection]) => refusedResult(index, rejection));
    const runnable: Array<{ index: number; item: BatchItem }> = [];
    let next = 0;
    for (const item of request.items) {
      while (rejected.has(next)) next++;
      const problem = itemProblem(item);
      if (problem) refused.push(refusedResult(next, { error: problem, operation: itemCaseName(item) }));
      else runnable.push({ index: next, item });
      next++;
    }
    const chunks: JobChunkDraft[] = [];
    for (let start = 0; start < runnable.length; start += parts.chunkSize) {
      const slice = runnable.slice(start, start + parts.chunkSize);
      chunks.push({ indexes: slice.map((s) => s.index), items: toBinary(BatchLookupRequestSchema, create(BatchLookupRequestSchema, { items: slice.map((s) => s.item) })) });
    }

    const id = randomUUID();
    const secret = webhookUrl === undefined ? undefined : generateWebhookSecret();
    const label = request.label?.trim();
    const job = await parts.store.jobs.create({
      id, accountId: context.accountId, total, chunks, rejected: refused,
      ...(label ? { label } : {}),
      ...(webhookUrl !== undefined && secret !== undefined && { webhook: { url: webhookUrl, secretCiphertext: sealSecret(parts.webhooks.keyring, secret, id) } }),
    });
    try {
      await queueChunks(parts.chunks, chunks.map((_, chunk) => ({ jobId: id, chunk })));
      await announceEnd(parts.jobEnds, job.expiresAt ? job : null);
    } catch (error) {
      parts.log?.error({ err: error, jobId: id }, 'a job could not be queued; stopped');
      await parts.store.jobs.stop(context.accountId, id, 'FAILED', 'INTERNAL').catch(() => undefined);
      // INTERNAL (the queue's Redis is the service's own part); the stored job is stopped, so a retry runs it once.
      throw new WatchServiceError(ErrorReason.INTERNAL, undefined, [], { cause: error });
    }
    return create(CreateJobResponseSchema, { retailJob: jobMessage(job, { secret, retentionMs: parts.store.jobRetentionMs }) });
  };
}
