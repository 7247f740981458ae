/**
 * The OpenAPI path item of `GET /api/account/usage` (account-usage-route.ts): its parameters and row
 * schema from the shared declaration (gateway-shared's usage-schema.ts), JSON and CSV answers, the rate
 * limit's headers and its 429 (a read takes a token, as a lookup does).
 */
import { type JsonSchema, USAGE_PARAMETERS, USAGE_ROOT, USAGE_SCHEMA } from '@retail/gateway-shared';

export interface AccountUsageOpenApiParts {
  readonly headers: Record<string, unknown>;
  readonly errorRefs: (statuses: readonly string[]) => Record<string, unknown>;
  /** The generated example (scripts/openapi-examples.ts): a working request and its answer, when there is one. */
  readonly example?: { readonly request: Readonly<Record<string, unknown>>; readonly response: unknown };
}

export function accountUsagePathItem({ headers, errorRefs, example }: AccountUsageOpenApiParts): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = USAGE_PARAMETERS.map((p) => ({
    name: p.name,
    in: 'query',
    required: false,
    description: p.name === 'groupBy' ? `${p.description} A comma list (groupBy=key,operation) or the parameter repeated.` : p.description,
    schema: p.name === 'groupBy' ? { type: 'string', pattern: `^(${(p.schema.enum as string[]).join('|')})(,(${(p.schema.enum as string[]).join('|')}))*$`, examples: ['key,operation'] } : p.schema,
    // The working request's parameters as `example` (explorers fill them in), as the operations' are.
    ...(example?.request[p.name] !== undefined && { example: example.request[p.name] }),
  }));
  parameters.push({
    name: 'format',
    in: 'query',
    required: false,
    description: 'json (default) or csv: text/csv (RFC 4180, header line, CRLF) with the same rows and columns.',
    schema: { type: 'string', enum: ['json', 'csv'], default: 'json', examples: ['csv'] },
  });
  const schema: JsonSchema = {
    type: 'object',
    properties: { data: { type: 'object', properties: { [USAGE_ROOT]: USAGE_SCHEMA }, required: [USAGE_ROOT] } },
    required: ['data'],
  };
  return {
    get: {
      operationId: 'get_AccountUsage',
      summary: 'Calls and units of the calling key\'s account per UTC day or hour, optionally per key, operation and interface, from the usage record (free).',
      description: 'Free: no units are charged (X-Units-Charged is always 0), but each read needs a valid key and takes one token of the rate limit, as a lookup does; its 400s answer after the key (401), the account (403) and the rate limit (429).',
      tags: ['account'],
      parameters,
      responses: {
        '200': {
          description: 'The usage rows, oldest first (JSON, or CSV with format=csv).',
          headers,
          content: {
            'application/json': { schema, ...(example !== undefined ? { example: example.response } : {}) },
            'text/csv': { schema: { type: 'string' }, example: 'period,calls,units\r\n2026-01-01T00:00:00.000Z,12,12\r\n' },
          },
        },
        ...errorRefs(['400', '401', '403', '429', '500', '501', '503']),
      },
    },
  };
}
