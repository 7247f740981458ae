/**
 * The bulk-job routes of job-routes.ts in the OpenAPI document: the create with its three body media
 * types and its 202, the results download (NDJSON lines, each a batch entry, or CSV) and the
 * progress stream (Server-Sent Events), from the registry's CreateJob and GetJob and the shared
 * schemas, so they say what the other routes say of the same things.
 */
import { BatchItemResultSchema, JobService } from '@retail/contract';
import {
  BATCH_REGISTRY, CSV_TYPE, JOB_CSV_COLUMNS, MAX_JOB_ITEMS, type MessageSchemas, NDJSON_TYPE, SSE_HEARTBEAT_MS, dataSchema, objectSchema, parameterSchema,
  registryOperation,
} from '@retail/gateway-shared';
import { documentedItemSchema } from './batch-openapi.js';
import { OPENAPI_EXAMPLES } from './openapi-examples.generated.js';
import { JOB_BODY_LIMIT_BYTES } from './job-body.js';
import { CSV_PARAMETER_COLUMNS } from './job-csv-body.js';
import { JOB_EVENTS_PATH, JOB_RESULTS_PATH, JOBS_PATH } from './job-routes.js';

const CREATE_JOB = registryOperation(JobService.method.createJob.name);
const GET_JOB = registryOperation(JobService.method.getJob.name);

export interface JobDocumentParts {
  readonly schemas: MessageSchemas;
  /** The headers of a free call's answer (X-Request-Id, RateLimit, X-Units-Charged: 0, X-Units-Remaining). */
  readonly freeHeaders: Record<string, unknown>;
  readonly errorRefs: (statuses: readonly string[]) => Record<string, unknown>;
  /** The 404 of a route naming a job: "no such job for this account". */
  readonly notFound: Record<string, unknown>;
}

const text = (description: string) => ({ type: 'string', description });
const envelope = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

const CSV_DIALECT = 'RFC 4180 CSV, UTF-8 (a byte-order mark is tolerated), comma-separated, a header row first; fields with commas, quotes or line breaks in double quotes.';

/** A schema with an example in `examples` (a parameter's `example` is what explorers fill in: only the create's working request has them). */
const withExample = (schema: Record<string, unknown>, value: unknown) => (value === undefined ? schema : { ...schema, examples: [value] });

/** The demo's job, as GetJob answered it once ended (scripts/openapi-examples.ts). */
const exampleJob = () => (OPENAPI_EXAMPLES[GET_JOB.operationId]?.response as { data?: { retailJob?: Record<string, unknown> } } | undefined)?.data?.retailJob;

function idParameter() {
  const id = GET_JOB.parameters.find((p) => p.name === 'id')!;
  return { name: 'id', in: 'path', required: true, description: 'Job id.', schema: withExample(parameterSchema(id), exampleJob()?.id) };
}

/** The cursor that resumes the example job's download at its last result (one NDJSON line). */
function lastResultCursor(): string | undefined {
  const total = exampleJob()?.total;
  return typeof total === 'number' && total > 1 ? String(total - 2) : undefined;
}

/** The example job's last event id: `<status>.<done>.<failed>.<unitsCharged>`, as the stream writes it. */
function lastEventExample(): string | undefined {
  const job = exampleJob();
  return job && ['status', 'done', 'failed', 'unitsCharged'].map((field) => String(job[field])).join('.');
}

const query = (name: string, schema: Record<string, unknown>, description: string) => ({ name, in: 'query', required: false, description, schema });

function createOperation({ schemas, freeHeaders, errorRefs }: JobDocumentParts) {
  // The demo's job (scripts/openapi-examples.ts): a body and its 202, as the batch route shows its own.
  const examples = OPENAPI_EXAMPLES[CREATE_JOB.operationId];
  const given = (examples?.request ?? {}) as Record<string, unknown>;
  // Only what refuses the call: items (1 to 100,000), label and webhook with their rules; an item's
  // own form is documented, not validated (documentedItemSchema says why).
  const options = objectSchema(CREATE_JOB.parameters.filter((p) => p.name !== 'items'));
  const optionProperties = Object.fromEntries(Object.entries(options.properties as Record<string, Record<string, unknown>>).map(([name, schema]) => [name, withExample(schema, given[name])]));
  const items = { type: 'array', minItems: 1, maxItems: MAX_JOB_ITEMS, items: documentedItemSchema(schemas, 'One lookup.'), description: 'The lookups, each as a batch item {operation, params}.' };
  const json = { ...options, properties: { items: withExample(items, given.items), ...optionProperties }, required: ['items'] };
  const [firstItem] = (given.items ?? []) as { operation?: string }[];
  const webhookUrl = (given.webhook as { url?: string } | undefined)?.url;
  return {
    operationId: CREATE_JOB.operationId,
    summary: CREATE_JOB.summary,
    description: [
      `Up to ${MAX_JOB_ITEMS.toLocaleString('en-US')} lookups, run in the background. Free to create: each item that succeeds is charged one unit as the job runs.`,
      'A malformed item (or NDJSON line, or CSV row) becomes that item\'s 400 result; only what no item can answer for refuses the call.',
      `Body (at most ${JOB_BODY_LIMIT_BYTES / 1024 / 1024} MiB, read as it arrives): JSON {items, label?, webhook?}; NDJSON, one item per line; or CSV (${CSV_DIALECT}) whose columns are "operation" (or ?operation= for every row) and parameters of the item operations (${[...CSV_PARAMETER_COLUMNS].join(', ')}), an empty cell not given.`,
      'With NDJSON and CSV, label and webhook come from the query string.',
    ].join(' '),
    tags: ['jobs'],
    parameters: [
      // Examples in the schema only: an explorer filling them in beside a JSON body would be refused.
      query('operation', withExample({ type: 'string', enum: BATCH_REGISTRY.items.map((i) => i.name) }, firstItem?.operation), 'CSV only: the operation of every row, instead of an "operation" column.'),
      query('label', withExample({ type: 'string', maxLength: 200 }, given.label), 'NDJSON and CSV only: your label for the job.'),
      query('webhook', withExample({ type: 'string', pattern: '^https://' }, webhookUrl), 'NDJSON and CSV only: HTTPS URL told when the job ends (signed, Standard Webhooks).'),
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: json, ...(examples && { example: examples.request }) },
        [NDJSON_TYPE]: { schema: documentedItemSchema(schemas, 'One line: one item (a line that is not JSON is that item\'s 400).') },
        [CSV_TYPE]: { schema: text(`${CSV_DIALECT} One row per item.`) },
      },
    },
    responses: {
      '202': {
        description: 'The job, stored and queued (status QUEUED; items refused at once already count in done and failed). Its webhook secret is shown in this answer only.',
        headers: { ...freeHeaders, Location: { description: 'The job: GET it for its progress.', schema: { type: 'string' } } },
        content: {
          'application/json': { schema: { type: 'object', properties: { data: dataSchema(CREATE_JOB, schemas) }, required: ['data'], additionalProperties: false }, ...(examples && { example: examples.response }) },
        },
      },
      ...errorRefs(['400', '401', '403']),
      '413': envelope(`The body is over ${JOB_BODY_LIMIT_BYTES} bytes; split the job.`),
      '415': envelope('The body is not JSON, NDJSON or CSV, or is compressed.'),
      ...errorRefs(['429', '500', '501', '503']),
    },
  };
}

function resultsOperation({ schemas, freeHeaders, errorRefs, notFound }: JobDocumentParts) {
  // A line is a batch entry, as a job's result renders everywhere (gateway-shared response-data.ts).
  const entry = schemas.ref(BatchItemResultSchema);
  return {
    operationId: 'download_RetailJobResults',
    summary: 'A bulk job\'s results, streamed from storage: NDJSON (each line one item\'s batch entry) or CSV.',
    description: [
      'Free. Results in item order, each line {index, status: 200, data} or {index, status, errors} as a batch answers it; ?format=csv gives one row per item instead.',
      `CSV columns: ${JOB_CSV_COLUMNS.join(', ')} (a record's scalar fields and those of its nested objects as parent.child; lists only in NDJSON; error: the item's messages).`,
      'Without follow, the results stored so far; ?cursor=<index> resumes after that item.',
    ].join(' '),
    tags: ['jobs'],
    parameters: [
      idParameter(),
      query('format', { type: 'string', enum: ['ndjson', 'csv'], default: 'ndjson', examples: ['csv'] }, 'ndjson (default) or csv.'),
      query('cursor', withExample({ type: 'string', pattern: '^\\d{1,9}$' }, lastResultCursor()), 'Resume after the item with this index.'),
      query('follow', { type: 'string', enum: ['true', 'false'], default: 'false', examples: ['true'] }, 'true: wait for the results of a running job until it has ended.'),
    ],
    responses: {
      '200': {
        description: 'The results, streamed.',
        headers: { ...freeHeaders, 'Content-Disposition': { description: 'attachment; filename="job-<id>.ndjson" (or .csv).', schema: { type: 'string' } } },
        content: {
          [NDJSON_TYPE]: { schema: entry },
          [CSV_TYPE]: { schema: text(`${CSV_DIALECT} Columns: ${JOB_CSV_COLUMNS.join(', ')}.`) },
        },
      },
      ...errorRefs(['400', '401', '403']),
      '404': notFound,
      ...errorRefs(['429', '500', '501', '503']),
    },
  };
}

function eventsOperation({ freeHeaders, errorRefs, notFound }: JobDocumentParts) {
  return {
    operationId: 'stream_RetailJobProgress',
    summary: 'A bulk job\'s progress as Server-Sent Events, until it ends.',
    description: [
      'Free. A "progress" event whenever the job changes and one "end" event with its final state, then the stream closes; each event\'s data is {"retailJob": {...}} as GET /api/retail/jobs/{id} answers it.',
      'Each event has an id; reconnect with Last-Event-ID to skip the state you have (an ended job you have the end of answers 204, which stops an EventSource).',
      `A comment line every ${SSE_HEARTBEAT_MS / 1000} s keeps idle connections open.`,
    ].join(' '),
    tags: ['jobs'],
    parameters: [idParameter(), { name: 'Last-Event-ID', in: 'header', required: false, description: 'The id of the last event received.', schema: withExample({ type: 'string' }, lastEventExample()) }],
    responses: {
      '200': {
        description: 'The event stream.',
        headers: freeHeaders,
        content: { 'text/event-stream': { schema: text('event: progress | end; id: <status>.<done>.<failed>.<unitsCharged>; data: {"retailJob": Job}.') } },
      },
      '204': { description: 'The job has ended and Last-Event-ID names its final state: nothing more will come.' },
      ...errorRefs(['400', '401', '403']),
      '404': notFound,
      ...errorRefs(['429', '500', '501', '503']),
    },
  };
}

/** The job routes' path items; the create joins the registry's ListJobs on its path. */
export function jobPathItems(parts: JobDocumentParts, existing: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  return {
    [JOBS_PATH]: { ...existing[JOBS_PATH], post: createOperation(parts) },
    [JOB_RESULTS_PATH]: { get: resultsOperation(parts) },
    [JOB_EVENTS_PATH]: { get: eventsOperation(parts) },
  };
}
