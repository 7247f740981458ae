/**
 * Many mode over POST /api/retail/batch (docs/rest.md, Batch calls): up to 100 inputs per call, the
 * answer read as NDJSON so that each input's answer (and the progress bar) arrives as its item
 * completes. An item's entry becomes the answer the single call would have given: its status, and
 * `{data}` or `{errors}` as the body. A refusal of the whole call (402, 400, 401, ...) is every
 * item's answer, as it would have been each single call's; a 429 is waited out and the batch sent
 * again (rate-limit.ts), the rate limit counting the batch as its item count.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { BATCH_REGISTRY, batchItemOf } from '@retail/gateway-shared/batch-registry';
import type { Operation } from '@retail/gateway-shared/registry';
import { type ApiAnswer, type ApiSettings, UnreachableError, fetchApi, readAnswer, unreachable } from './http.js';
import type { ChunkCall } from './many.js';
import { type RateLimitOptions, honourRateLimits } from './rate-limit.js';
import { type CliValues, batchParams } from './request.js';

/** Most inputs one batch call carries. */
export const BATCH_SIZE = BATCH_REGISTRY.maxItems;

const NDJSON = 'application/x-ndjson';

/** The item operation name of `op` (`product/offers`) when a batch may run it (a per-product lookup), else undefined. */
export const batchOperationName = (op: Operation): string | undefined => batchItemOf(op)?.name;

/** One entry of the batch's answer (`{index, status, data}` or `{index, status, errors}`). */
interface BatchEntry {
  readonly index: number;
  readonly status: number;
  readonly data?: unknown;
  readonly errors?: unknown;
}

/** The batch's answer: the refusal of the whole call, or (status 200) the entries as they arrive. */
type BatchOpening = ApiAnswer & { readonly entries?: AsyncIterable<string> };

async function openBatch(settings: ApiSettings, items: readonly unknown[]): Promise<BatchOpening> {
  const response = await fetchApi(settings, { method: 'POST', pathAndQuery: BATCH_REGISTRY.restPath, body: { items } }, NDJSON);
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.startsWith(NDJSON) || !response.body) return readAnswer(settings, response);
  // readline splits the stream into lines (a line may span chunks) rather than a splitter of our own.
  const lines = createInterface({ input: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), crlfDelay: Infinity });
  return { status: response.status, headers: response.headers, body: null, entries: lines };
}

/** The single call's answer an entry stands for. */
function entryAnswer(entry: BatchEntry, headers: Headers): ApiAnswer {
  const body = entry.status < 400 ? { data: entry.data } : { errors: entry.errors };
  return { status: entry.status, headers, body };
}

/** The chunk caller of many mode for a batchable operation, each input filling `parameter`. */
export function batchCall(settings: ApiSettings, op: Operation, operation: string, values: CliValues, parameter: string, rateLimits: RateLimitOptions): ChunkCall {
  const open = honourRateLimits((items: readonly unknown[]) => openBatch(settings, items), rateLimits);
  return async (inputs, answer) => {
    const items = inputs.map((input) => ({ operation, params: batchParams(op, { ...values, [parameter]: input }) }));
    const opened = await open(items);
    if (!opened.entries) {
      inputs.forEach((_, position) => answer(position, opened));
      return;
    }
    try {
      for await (const line of opened.entries) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as BatchEntry;
        answer(entry.index, entryAnswer(entry, opened.headers));
      }
    } catch (error) {
      // A stream cut short (timeout, connection lost): the inputs not yet answered are unreachable.
      throw error instanceof SyntaxError ? new UnreachableError(`${settings.base} answered a batch line that is not JSON`) : unreachable(settings, error);
    }
  };
}
