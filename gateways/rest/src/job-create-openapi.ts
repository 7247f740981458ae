/**
 * `POST /api/retail/jobs` in the OpenAPI document: its three body media types, whose schemas refuse
 * only what refuses the call (an item's form is documented, not validated: batch-openapi.ts says
 * why), the query parameters of NDJSON and CSV, and its 202, with the demo job's examples.
 */
import { BATCH_REGISTRY, CSV_TYPE, MAX_JOB_ITEMS, NDJSON_TYPE, dataSchema, objectSchema } from '@retail/gateway-shared';
import { documentedItemSchema } from './batch-openapi.js';
import { JOB_BODY_LIMIT_BYTES } from './job-body.js';
import { CSV_PARAMETER_COLUMNS } from './job-csv-body.js';
import { CSV_DIALECT, type JobDocumentParts, envelope, query, text, withExample } from './job-openapi-parts.js';
import { CREATE_JOB } from './job-paths.js';
import { OPENAPI_EXAMPLES } from './openapi-examples.generated.js';

export function createOperation({ schemas, freeHeaders, errorRefs }: JobDocumentParts) {
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
      query('webhook', withExample({ type: 'string', pattern: '^https?://' }, webhookUrl), 'NDJSON and CSV only: HTTPS URL told when the job ends (signed, Standard Webhooks); http only to this machine where the operator allows it.'),
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
