/**
 * The batch route in the OpenAPI document, from the batch registry and its schemas (gateways/shared
 * batch-schemas.ts): the request body, and both answers of a 200, the JSON document in item order
 * and the NDJSON stream, one entry per line, whose charge arrives in trailers.
 */
import { BATCH_REGISTRY, type MessageSchemas, batchBodySchema, batchEntrySchema, batchItemRequestSchema, batchResponseSchema } from '@retail/gateway-shared';

const header = (description: string) => ({ description, schema: { type: 'string' } });

export interface BatchDocumentParts {
  readonly schemas: MessageSchemas;
  /** The headers of every metered 200 (X-Request-Id, RateLimit, X-Units-*, X-Cache, X-Retrieved-At). */
  readonly successHeaders: Record<string, unknown>;
  readonly errorRefs: (statuses: readonly string[]) => Record<string, unknown>;
}

/** The path item of `POST /api/retail/batch`; its item and entry schemas join the components. */
export function batchPathItem({ schemas, successHeaders, errorRefs }: BatchDocumentParts): Record<string, unknown> {
  schemas.defs.RetailBatchItemRequest = batchItemRequestSchema();
  schemas.defs.RetailBatchEntry = batchEntrySchema(schemas);
  const entry = { $ref: '#/components/schemas/RetailBatchEntry' };
  const max = BATCH_REGISTRY.maxItems;
  return {
    post: {
      operationId: BATCH_REGISTRY.operationId,
      summary: BATCH_REGISTRY.summary,
      description: [
        `Up to ${max} per-product lookups; each item answers on its own with its index (a malformed or failed item is its own error entry, never the call's).`,
        'One unit is held per well-formed item (402 for the whole call when the balance cannot cover them) and charged per item that succeeded; the call counts as its item count against the rate limit.',
        'Default: one JSON document in item order. With `Accept: application/x-ndjson`: one line per item as it completes; the charge is then sent as HTTP trailers (X-Units-Charged, X-Units-Remaining), and equals the number of lines with status 200.',
      ].join(' '),
      tags: ['retail'],
      requestBody: { required: true, content: { 'application/json': { schema: batchBodySchema({ $ref: '#/components/schemas/RetailBatchItemRequest' }) } } },
      responses: {
        '200': {
          description: 'Every item\'s answer: in item order as one JSON document, or one NDJSON line per item in the order they completed.',
          headers: {
            ...successHeaders,
            'X-Units-Charged': header('JSON: units charged, one per item with status 200. NDJSON: sent as a trailer instead.'),
            'X-Units-Remaining': header('JSON: units left on the account. NDJSON: sent as a trailer instead.'),
            Trailer: header('NDJSON only: "X-Units-Charged, X-Units-Remaining", the trailers that follow the last line.'),
          },
          content: {
            'application/json': { schema: batchResponseSchema(entry) },
            // Each line is one entry, in the order the items completed.
            'application/x-ndjson': { schema: entry },
          },
        },
        ...errorRefs(['400', '401', '402', '403', '429', '500', '503']),
      },
    },
  };
}
