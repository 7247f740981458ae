/**
 * The bulk-job routes of job-routes.ts in the OpenAPI document: the create (job-create-openapi.ts),
 * the results download (NDJSON lines, each a batch entry, or CSV) and the
 * progress stream (Server-Sent Events), from the registry's CreateJob and GetJob and the shared
 * schemas, so they say what the other routes say of the same things.
 */
import { BatchItemResultSchema } from '@retail/contract';
import { CSV_TYPE, JOB_CSV_COLUMNS, NDJSON_TYPE, SSE_HEARTBEAT_MS, parameterSchema } from '@retail/gateway-shared';
import { ndjsonEntriesSchema } from './batch-openapi.js';
import { createOperation } from './job-create-openapi.js';
import { CSV_DIALECT, type JobDocumentParts, exampleJob, query, text, withExample } from './job-openapi-parts.js';
import { GET_JOB, JOB_EVENTS_PATH, JOB_RESULTS_PATH, JOBS_PATH } from './job-paths.js';

export type { JobDocumentParts } from './job-openapi-parts.js';

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

function resultsOperation({ schemas, freeHeaders, errorRefs, notFound }: JobDocumentParts) {
  // A line is a batch entry, as a job's result renders everywhere (gateway-shared response-data.ts):
  // its schema joins the components, where the NDJSON's description points.
  schemas.ref(BatchItemResultSchema);
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
          [NDJSON_TYPE]: { schema: ndjsonEntriesSchema('in item order') },
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
