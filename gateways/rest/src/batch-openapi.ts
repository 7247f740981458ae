/**
 * The batch route in the OpenAPI document, from the batch registry and its schemas (gateways/shared
 * batch-schemas.ts): the request body, and both answers of a 200, the JSON document in item order
 * and the NDJSON stream, one entry per line, whose charge arrives in trailers.
 */
import { BATCH_ENTRY_DEF, BATCH_REGISTRY, type MessageSchemas, NDJSON_TYPE, batchBodySchema, batchEntrySchema, batchItemRequestSchema, batchResponseSchema } from '@retail/gateway-shared';

const header = (description: string) => ({ description, schema: { type: 'string' } });

/** The component that documents an item's form, one schema per operation it may name. */
const ITEM_DEF = 'RetailBatchItemRequest';

/**
 * An item as the call takes it (a batch body's, a job body's, an NDJSON line), with its form joined
 * to the components. The schema validates nothing on purpose: an item that does not fit its
 * operation's form (no operation, a bad `params.asin`, not even an object) is that item's own 400
 * entry (a batch's 200, a job whose item fails), never the call's, so validating it here would say
 * the call refuses what it accepts, and contract testers (Portman's fuzzing) would expect a 400 for
 * the whole call. The form is named in the description instead (with a link: documentation
 * renderers show descriptions, and Swagger UI and Redoc list the components), since JSON Schema has
 * no keyword that points at a schema without applying it, and an `x-` extension is read by no tool.
 */
export function documentedItemSchema(schemas: MessageSchemas, description: string): Record<string, unknown> {
  schemas.defs[ITEM_DEF] ??= batchItemRequestSchema();
  return {
    description: `${description} Its form per operation: [${ITEM_DEF}](#/components/schemas/${ITEM_DEF}), {"operation": "product", "params": {…}}. An item that does not fit it is not the call's error but that item's own, with status 400.`,
  };
}

export interface BatchDocumentParts {
  readonly schemas: MessageSchemas;
  /** The headers of every metered 200 (X-Request-Id, RateLimit, X-Units-*, X-Cache, X-Retrieved-At). */
  readonly successHeaders: Record<string, unknown>;
  readonly errorRefs: (statuses: readonly string[]) => Record<string, unknown>;
}

/**
 * An NDJSON body of entries (the batch's stream, a job's download), one entry per line. In OpenAPI
 * 3.1 a media type's schema describes the whole body, and several lines are no JSON value (Prism
 * reads such a body as text); a schema per line is 3.2's `itemSchema`. So, as for an item, the schema
 * validates nothing and its description names the line's schema, the RetailBatchEntry component.
 */
export function ndjsonEntriesSchema(order: string): Record<string, unknown> {
  return { description: `NDJSON: one line per item, ${order}, each a [${BATCH_ENTRY_DEF}](#/components/schemas/${BATCH_ENTRY_DEF}) ({index, status: 200, data} or {index, status, errors}).` };
}

/** The path item of `POST /api/retail/batch`; its item and entry schemas join the components. */
export function batchPathItem({ schemas, successHeaders, errorRefs }: BatchDocumentParts): Record<string, unknown> {
  const item = documentedItemSchema(schemas, 'One lookup.');
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
      // Only what refuses the call: an object of `items` alone, 1 to 100 of them.
      requestBody: { required: true, content: { 'application/json': { schema: batchBodySchema(item) } } },
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
            [NDJSON_TYPE]: { schema: ndjsonEntriesSchema('in the order the items completed') },
          },
        },
        ...errorRefs(['400', '401', '402', '403', '429', '500', '503']),
      },
    },
  };
}
