/**
 * The body of `POST /api/retail/jobs` in any of its three forms, read as it arrives (never the whole
 * text in memory): JSON `{"items": [...], "label"?, "webhook"?}` (job-json-body.ts),
 * `application/x-ndjson` (one item per line), `text/csv` (job-csv-body.ts). Every item goes through
 * the batch's item translation (gateway-shared job-items.ts), so a malformed item, a line that is
 * not JSON or a CSV row that does not fit is that item's 400 result, never the call's. What no item
 * can answer for refuses the call: a body over the limit (413), an unknown media type or encoding
 * (415), a body that is not the form it says, no item or more than 100,000 (400).
 */
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import type { CreateJobRequest } from '@retail/contract';
import { MAX_JOB_ITEMS, type JobItems, createJobItems, jobItemCountMessage } from '@retail/gateway-shared';
import { BodyRefusal } from './job-body-refusal.js';
import { readCsvItems } from './job-csv-body.js';
import { readJsonJob } from './job-json-body.js';

/**
 * 32 MiB: 100,000 items of up to about 330 bytes each (an ASIN item is about 70 bytes as JSON, 20
 * as a CSV row; a product URL item 150–300). Only this route reads bodies this large.
 */
export const JOB_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

export type JobBodyFormat = 'json' | 'ndjson' | 'csv';

/** The CreateJob request a body came to, without the account (the gateway adds nothing else). */
export type JobDraft = Pick<CreateJobRequest, 'items' | 'rejectedItems'> & { label?: string; webhook?: { url: string } };

export type JobBody =
  | { readonly ok: true; readonly draft: Omit<JobDraft, 'label' | 'webhook'> & { readonly params: Record<string, unknown> } }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string; readonly path: string[] };

/** The refusal of a job with no items or too many. */
export const itemCountRefusal = () => new BodyRefusal(400, jobItemCountMessage(), ['body', 'items']);

/** Counts a job's items as they are read: past the limit, the call is refused at once (the rest is not read). */
export function countedItems(): JobItems {
  const items = createJobItems();
  const check = () => {
    if (items.count >= MAX_JOB_ITEMS) throw itemCountRefusal();
  };
  return {
    add: (value, reading) => (check(), items.add(value, reading)),
    refuse: (message, path, operation) => (check(), items.refuse(message, path, operation)),
    get count() {
      return items.count;
    },
    request: () => items.request(),
  };
}

/** The request's body as a stream that fails with a 413 refusal past `limit` bytes. */
function limited(body: Readable, limit: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) return done(new BodyRefusal(413, `the request body exceeds the limit of ${limit} bytes for a job (about 100,000 items); split it into several jobs`));
      done(null, chunk);
    },
  });
  body.on('error', (error) => counter.destroy(error));
  return body.pipe(counter);
}

async function readNdjson(body: Readable, items: JobItems): Promise<void> {
  const lines = createInterface({ input: body, crlfDelay: Infinity });
  for await (const line of lines) {
    const text = line.trim();
    if (text === '') continue; // blank lines (a trailing newline) are no items
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      items.refuse(`item ${items.count} (a line of the body) is not valid JSON`);
      continue;
    }
    items.add(value, { style: 'rest' });
  }
}

export interface JobBodyInput {
  readonly format: JobBodyFormat;
  readonly body: Readable;
  /** CSV: the operation of every row, from `?operation=` (instead of an `operation` column). */
  readonly operation?: string;
  readonly limitBytes?: number;
}

export async function readJobBody(input: JobBodyInput): Promise<JobBody> {
  const body = limited(input.body, input.limitBytes ?? JOB_BODY_LIMIT_BYTES);
  const items = countedItems();
  let params: Record<string, unknown> = {};
  try {
    if (input.format === 'json') params = await readJsonJob(body, items);
    else if (input.format === 'ndjson') await readNdjson(body, items);
    else await readCsvItems(body, items, input.operation);
    if (items.count === 0) throw itemCountRefusal();
  } catch (error) {
    body.destroy();
    if (error instanceof BodyRefusal) return { ok: false, status: error.status, message: error.message, path: error.path };
    return { ok: false, status: 400, message: 'the request body could not be read', path: ['body'] };
  }
  return { ok: true, draft: { ...items.request(), params } };
}
