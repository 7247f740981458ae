/**
 * A bulk job's items as the gateways hand them to CreateJob, read one at a time from whatever body
 * carried them (a JSON `items` list, NDJSON lines, CSV rows), each through the batch's own item
 * translation (batch-items.ts): a runnable item becomes its BatchItem; a malformed one becomes a
 * `rejected_items` entry at its position (INVALID_ARGUMENT, its message, its path inside the item),
 * which the watcher stores as that item's result. A malformed item is never the call's error.
 */
import { create } from '@bufbuild/protobuf';
import { type BatchItem, type CreateJobRequest, ErrorDetailSchema, ErrorReason, JOB_MAX_ITEMS, type JobRejectedItem, JobRejectedItemSchema, RULE_MESSAGES } from '@retail/contract';
import { type ItemReading, readBatchItem, toBatchItem } from './batch-items.js';
import { type BatchItemOperation, batchItemNamed } from './batch-registry.js';
import type { ParameterError } from './parameters.js';

/** The watcher keeps a refused item's message to a sentence (job-create.ts): the errors joined, cut there. */
const MAX_REJECTION_MESSAGE = 1000;

/** Where an item error points, inside the item: `operation`, `params` and below, or the item itself. */
const ITEM_PLACES = new Set(['operation', 'params']);

export interface JobItems {
  /** Reads the item at the next position. */
  add(value: unknown, reading: ItemReading): void;
  /** Refuses the next position with `message` (a line that is not JSON, a CSV row that does not fit); `operation`: the one it names, if known. */
  refuse(message: string, path?: readonly string[], operation?: string): void;
  /** Items read so far, refused ones included. */
  readonly count: number;
  /** The CreateJob fields: the runnable items in order, the refused ones with their positions. */
  request(): Pick<CreateJobRequest, 'items' | 'rejectedItems'>;
}

/** A refused item's path inside the item (`["params", "asin"]`, `["operation"]`, or `[]` for the item). */
function insideItem(path: readonly string[]): string[] {
  const [place] = path;
  return place !== undefined && ITEM_PLACES.has(place) ? [...path] : [];
}

/** `item`: the operation the refused item named (kept with its result, so a results file names it). */
function rejection(index: number, errors: readonly Pick<ParameterError, 'message' | 'path'>[], item?: BatchItemOperation): JobRejectedItem {
  const message = errors.map((e) => e.message).join('; ').slice(0, MAX_REJECTION_MESSAGE);
  // readBatchItem's paths start at the item's position (read with `at` = []): drop it.
  const fieldPath = insideItem((errors[0]?.path ?? []).slice(1));
  const error = create(ErrorDetailSchema, { reason: ErrorReason.INVALID_ARGUMENT, message, fieldPath });
  return create(JobRejectedItemSchema, { index, error, operation: item?.kind.itemField.name ?? '' });
}

export function createJobItems(): JobItems {
  const items: BatchItem[] = [];
  const rejectedItems: JobRejectedItem[] = [];
  let count = 0;
  return {
    add(value, reading) {
      const read = readBatchItem(value, count, [], reading);
      if (read.ok) items.push(toBatchItem(read.item, read.request));
      else rejectedItems.push(rejection(count, read.errors, read.item));
      count++;
    },
    refuse(message, path = [], operation) {
      rejectedItems.push(rejection(count, [{ message, path: [String(count), ...path] }], operation === undefined ? undefined : batchItemNamed(operation)));
      count++;
    },
    get count() {
      return count;
    },
    request: () => ({ items, rejectedItems }),
  };
}

/** Most items one job may carry (the contract's limit, with the refused ones). */
export const MAX_JOB_ITEMS = JOB_MAX_ITEMS;

/** The refusal of a job with no items or too many, on every interface. */
export const jobItemCountMessage = (name = 'items'): string => `${RULE_MESSAGES.listLength(name, 1, MAX_JOB_ITEMS)}: a job has 1 to ${MAX_JOB_ITEMS.toLocaleString('en-US')} items`;
