/**
 * The OpenAPI 3.1.0 description of the REST interface, generated from the operation registry:
 * paths and methods, operationIds, query and path parameters and JSON request bodies with their
 * rules, response schemas from the response message descriptors, billing, both security schemes
 * and every error status with the envelope schema.
 */
import { accountUsagePathItem } from './account-usage-openapi.js';
import { batchPathItem } from './batch-openapi.js';
import { jobPathItems } from './job-openapi.js';
import { JOBS_PATH } from './job-paths.js';
import { API_REGISTRY, BATCH_REGISTRY, ERROR_ENVELOPE_SCHEMA, type JsonSchema, MessageSchemas, type Operation, type Parameter, dataSchema, objectSchema, parameterSchema } from '@retail/gateway-shared';
import { OPENAPI_EXAMPLES } from './openapi-examples.generated.js';

/*
 * Examples come from what `npm run demo` answers on the project's own fixtures, generated into
 * openapi-examples.generated.ts by scripts/openapi-examples.ts: the gateway ships without fixtures,
 * a replay server or a core to ask, and a committed file keeps the document the same on every start
 * (a staleness test regenerates and compares). An operation without an entry simply has none.
 */
const examplesOf = (op: Operation) => OPENAPI_EXAMPLES[op.operationId];

/** Error statuses every metered operation can answer, with what they mean (docs/contract.md, Errors). */
export const ERROR_STATUSES: Record<string, string> = {
  '400': 'Missing, malformed or unknown parameter, a body that is not a JSON object, or conflicting credentials.',
  '401': 'API key is invalid or missing.',
  '402': 'The unit balance cannot cover the call.',
  '403': 'The key may not use this operation or interface, or the account is disabled.',
  '404': 'The marketplace has no such item.',
  '429': 'Rate limit of the plan exceeded; see Retry-After.',
  '500': 'A fault of the service itself.',
  '501': 'The operation is not implemented yet, or this deployment is not configured for it (reviews past page 1 or filtered need a marketplace session); retrying will not help.',
  '502': 'The marketplace answered something unexpected; retry with exponential back-off.',
  '503': 'The marketplace blocked the request, its circuit is open, or the ledger is unavailable; see Retry-After.',
  '504': 'The marketplace did not answer within the deadline.',
};

const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({ description, schema });

const METERED_HEADERS = {
  'X-Request-Id': header('Identifier of this request (echoed when the client sent a well-formed one).'),
  'RateLimit-Policy': header('Rate-limit policy of the plan (IETF draft).'),
  RateLimit: header('Remaining quota of the current window (IETF draft).'),
  // Plain strings: mock generators (Prism) write values that break header patterns.
  'X-Units-Charged': header('Units charged for this call (1 on success, 0 on any error), as a decimal integer.'),
  'X-Units-Remaining': header('Units left on the account, as a decimal integer; negative (e.g. -3) while the account owes units: calls charged late after a recovery of the service (a debt). Metered calls then answer 402 until a grant pays it; free ones keep working.'),
};

/** A free operation's headers: the same, but its charge is always zero. */
const FREE_HEADERS = {
  ...METERED_HEADERS,
  'X-Units-Charged': header('Always 0: this operation is free (it still needs a key and counts against the rate limit).'),
};

/** What GET /api/status answers during a major incident of US product pages. */
const STATUS_EXAMPLE = {
  data: {
    retailStatus: {
      marketplaces: [{
        domain: 'US',
        kinds: [
          { kind: 'product', state: 'major', since: '2026-11-28T18:40:12.345Z', fields: ['price', 'isInStock'] },
          { kind: 'search', state: 'healthy', since: null, fields: [] },
        ],
      }],
    },
  },
};

/** GET /api/status (status-route.ts). */
const STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['retailStatus'],
      properties: {
        retailStatus: {
          type: 'object',
          required: ['marketplaces'],
          properties: {
            marketplaces: {
              type: 'array',
              items: {
                type: 'object',
                required: ['domain', 'kinds'],
                properties: {
                  domain: { type: 'string', description: 'Marketplace domain code ("US").' },
                  kinds: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['kind', 'state', 'since', 'fields'],
                      properties: {
                        kind: { type: 'string', description: 'Page kind, named as the REST path after /api/retail/ ("product", "product/offers").' },
                        state: { type: 'string', enum: ['healthy', 'degraded', 'major'] },
                        since: { type: ['string', 'null'], format: 'date-time', description: 'When it entered the state; null when never out of health.' },
                        fields: { type: 'array', items: { type: 'string' }, description: 'The affected fields, by their JSON names.' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const successHeaders = (op: Pick<Operation, 'billing'>) => ({
  ...(op.billing === 'free' ? FREE_HEADERS : METERED_HEADERS),
  'X-Cache': header('Whether the answer came from the page cache.', { type: 'string', enum: ['HIT', 'MISS', 'STALE'] }),
  'X-Retrieved-At': header('When the page behind the answer was retrieved from the marketplace.', { type: 'string', format: 'date-time' }),
  'X-Data-Incident': header('Present while the kind of page behind the answer is under a data incident (docs/data-health.md): its state and the affected fields, e.g. `major; fields="price isInStock"`.', { type: 'string', pattern: '^(degraded|major); fields="[A-Za-z ]*"$' }),
});

function errorResponse(status: string) {
  const headers: Record<string, unknown> = { 'X-Request-Id': METERED_HEADERS['X-Request-Id'] };
  if (status === '429' || status === '503') headers['Retry-After'] = header('Whole seconds to wait before retrying.');
  return {
    description: ERROR_STATUSES[status],
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
}

/**
 * A repeated parameter travels as one comma-separated value (docs/contract.md), so the document describes
 * exactly that string: a pattern repeating the item rule. Generators and validators then produce and
 * accept what the gateway does (an array schema would invite `?conditions=["NEW"]`).
 */
function commaListSchema(p: Parameter): JsonSchema {
  const item = p.enumValues ? `(?:${p.enumValues.join('|')})` : anchoredItem(p.pattern);
  const schema: JsonSchema = item ? { type: 'string', pattern: `^${item}(?:,${item})*$` } : { type: 'string' };
  if (p.description) schema.description = `${p.description} Comma-separated list.`;
  return schema;
}

/** The body of an anchored item pattern (`^x$` → `(?:x)`); undefined when it is not anchored. */
function anchoredItem(pattern: string | undefined): string | undefined {
  if (!pattern || !pattern.startsWith('^') || !pattern.endsWith('$')) return undefined;
  return `(?:${pattern.slice(1, -1)})`;
}

/**
 * The document's path of an operation: the proto's `{watch_id}` named as the parameter is
 * everywhere else (`{watchId}`: the error path `["path", "watchId"]`, the GraphQL argument).
 */
export function openApiPath(op: Operation): string {
  return op.pathParameters.reduce((path, p) => path.replace(`{${p.field.name}}`, `{${p.name}}`), op.restPath);
}

const inBody = (op: Operation, p: Parameter) => op.httpMethod !== 'GET' && !op.pathParameters.includes(p);

/** Path parameters (always required), then a GET's query parameters; a body's fields are in requestBody. */
function parameters(op: Operation) {
  return op.parameters.filter((p) => !inBody(op, p)).map((p) => {
    const inPath = op.pathParameters.includes(p);
    const schema = p.kind.endsWith('-list') && !inPath ? commaListSchema(p) : parameterSchema(p);
    // The parameters of the working request carry `example`, which API explorers put in their form;
    // the others carry theirs in the schema (`examples`), so "Try it out" sends one lookup key, not
    // three of an exactly-one-of group. Scalar (the API reference) fills in a schema's examples too,
    // and leaves a parameter out of its request when its example says `x-disabled` (its extension).
    const examples = examplesOf(op);
    const example = examples?.parameters[p.name];
    const sent = examples?.request[p.name] !== undefined;
    return {
      name: p.name,
      in: inPath ? 'path' : 'query',
      required: inPath || p.required,
      ...(schema.description ? { description: schema.description } : {}),
      schema: example !== undefined && !sent ? { ...schema, examples: [example] } : schema,
      ...(example !== undefined && sent ? { example } : {}),
      ...(example !== undefined && !sent ? { examples: { other: { summary: 'Not sent with the others', value: example, 'x-disabled': true } } } : {}),
    };
  });
}

/**
 * A JSON body of the fields not in the path; required when any of them is. Each field carries its
 * example, and the body as a whole the one a working request sends.
 */
function requestBody(op: Operation) {
  const fields = op.parameters.filter((p) => inBody(op, p));
  if (op.httpMethod === 'GET' || fields.length === 0) return {};
  const examples = examplesOf(op);
  const schema = objectSchema(fields);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const p of fields) {
    const example = examples?.parameters[p.name];
    if (example !== undefined && properties[p.name]) properties[p.name] = { ...properties[p.name], examples: [example] };
  }
  const body = examples && Object.fromEntries(Object.entries(examples.request).filter(([name]) => fields.some((p) => p.name === name)));
  return { requestBody: { required: fields.some((p) => p.required), content: { 'application/json': { schema, ...(body ? { example: body } : {}) } } } };
}

/** The 404 of a route naming a watch, a delivery or a job: about the caller's own, never a marketplace item. */
const NOT_FOUND_OWN = {
  description: 'No such watch, delivery or job for this account: another account\'s is not found either.',
  headers: { 'X-Request-Id': METERED_HEADERS['X-Request-Id'] },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

/** Statuses an operation can answer: a free one never runs out of units (no 402). */
function errorResponses(op: Operation) {
  const statuses = Object.keys(ERROR_STATUSES).filter((s) => !(s === '402' && op.billing === 'free'));
  const refs: Record<string, unknown> = errorRefs(statuses);
  if (op.pathParameters.length > 0) refs['404'] = NOT_FOUND_OWN;
  return refs;
}

/** Document tags by the service that serves an operation. */
const TAGS: Record<string, string> = { 'retail.v1.WatchService': 'watches', 'retail.v1.JobService': 'jobs' };

const BILLING = {
  metered: 'One unit on success; errors are free.',
  free: 'Free: no units are charged (X-Units-Charged is always 0), but it needs a valid key and counts against the rate limit.',
};

const errorRefs = (statuses: readonly string[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/Error${s}` }]));

function operationObject(op: Operation, schemas: MessageSchemas) {
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: BILLING[op.billing],
    tags: [TAGS[op.service] ?? 'retail'],
    parameters: parameters(op),
    ...requestBody(op),
    responses: {
      '200': {
        // Every success is 200 with the data envelope, a create and a delete included (docs/rest.md, Watches).
        description: 'The operation\'s data, under its root.',
        headers: successHeaders(op),
        content: {
          'application/json': {
            schema: { type: 'object', properties: { data: dataSchema(op, schemas) }, required: ['data'], additionalProperties: false },
            ...(examplesOf(op)?.response !== undefined ? { example: examplesOf(op)!.response } : {}),
          },
        },
      },
      ...errorResponses(op),
    },
  };
}

const ACCOUNT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: {
        accountId: { type: 'string' },
        plan: { type: 'string' },
        balance: { type: 'integer', description: 'Units left. Below zero while the account owes units (a late debit after a recovery of the service): metered calls answer 402 until a grant pays the debt.' },
        usage: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              date: { type: 'string' },
              operation: { type: 'string' },
              interface: { type: 'string', description: 'Where the calls came from: rest, graphql, mcp, or background work (watcher, jobs); absent for days counted before the ledger kept it.' },
              calls: { type: 'integer' },
            },
            required: ['date', 'operation', 'calls'],
          },
        },
      },
      required: ['accountId', 'plan', 'balance', 'usage'],
    },
  },
  required: ['data'],
};

/** The batch route with its body (and its `items` field) and JSON answer examples, when there are any. */
function withBatchExamples(item: Record<string, unknown>): Record<string, unknown> {
  const examples = OPENAPI_EXAMPLES[BATCH_REGISTRY.operationId];
  if (!examples) return item;
  const post = item.post as { requestBody: { content: Record<string, { schema: JsonSchema }> }; responses: Record<string, { content?: Record<string, object> }> };
  const body = post.requestBody.content['application/json']!;
  const properties = (body.schema.properties ?? {}) as Record<string, JsonSchema>;
  body.schema = { ...body.schema, properties: { ...properties, items: { ...properties.items, examples: [examples.parameters.items] } } };
  Object.assign(body, { example: examples.request });
  const ok = post.responses['200']?.content?.['application/json'];
  if (ok && examples.response !== undefined) Object.assign(ok, { example: examples.response });
  return item;
}

/** Builds the document (the same object for the same registry). */
export function buildOpenApi(operations: readonly Operation[] = API_REGISTRY): Record<string, unknown> {
  const schemas = new MessageSchemas('#/components/schemas/');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = openApiPath(op);
    paths[path] = { ...paths[path], [op.httpMethod.toLowerCase()]: operationObject(op, schemas) };
  }
  paths[BATCH_REGISTRY.restPath] = withBatchExamples(batchPathItem({ schemas, successHeaders: successHeaders({ billing: 'metered' }), errorRefs }));
  if (operations.some((op) => op.restPath === JOBS_PATH)) {
    Object.assign(paths, jobPathItems({ schemas, freeHeaders: FREE_HEADERS, errorRefs, notFound: NOT_FOUND_OWN }, paths));
  }
  paths['/api/account'] = {
    get: {
      operationId: 'get_Account',
      summary: 'Plan, unit balance and recent usage of the calling key\'s account (free).',
      tags: ['account'],
      responses: {
        '200': {
          description: 'The account summary.',
          headers: { 'X-Request-Id': METERED_HEADERS['X-Request-Id'] },
          content: { 'application/json': { schema: ACCOUNT_SCHEMA, ...(OPENAPI_EXAMPLES.get_Account ? { example: OPENAPI_EXAMPLES.get_Account.response } : {}) } },
        },
        ...errorRefs(['400', '401', '403', '429', '500', '503']),
      },
    },
  };
  // Free of units but one token of the rate limit each (a query of the record): a free call's headers, no balance.
  const { 'X-Units-Remaining': _balance, ...usageHeaders } = FREE_HEADERS;
  paths['/api/account/usage'] = accountUsagePathItem({
    headers: usageHeaders,
    errorRefs,
    ...(OPENAPI_EXAMPLES.get_AccountUsage && { example: OPENAPI_EXAMPLES.get_AccountUsage }),
  });
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'get_OpenApi',
      summary: 'This document (free, no key).',
      tags: ['meta'],
      security: [],
      responses: { '200': { description: 'The OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  paths['/api/status'] = {
    get: {
      operationId: 'get_Status',
      summary: 'How well the service reads each marketplace, page kind by page kind: data incidents (free, no key; docs/data-health.md).',
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'The state of every marketplace and page kind read so far.', headers: { 'X-Request-Id': METERED_HEADERS['X-Request-Id'] }, content: { 'application/json': { schema: STATUS_SCHEMA, example: STATUS_EXAMPLE } } },
        ...errorRefs(['503']),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Retail product data API',
      version: '1.0.0',
      description: 'Normalized product data from 13 regional marketplaces, watches over products (history, events, signed webhooks) and bulk jobs of up to 100,000 lookups. One unit per successful lookup, history read or job item; managing watches and jobs and reading events is free; errors are free.',
    },
    servers: [{ url: '/' }],
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    tags: [{ name: 'retail' }, { name: 'watches' }, { name: 'jobs' }, { name: 'account' }, { name: 'meta' }],
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'API-KEY' },
        BearerAuth: { type: 'http', scheme: 'bearer' },
      },
      schemas: { ...schemas.defs, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA },
      responses: Object.fromEntries(Object.keys(ERROR_STATUSES).map((s) => [`Error${s}`, errorResponse(s)])),
    },
  };
}
