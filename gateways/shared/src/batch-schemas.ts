/**
 * JSON Schemas of a batch, from the batch registry, for the OpenAPI document and the MCP tool: an
 * item as a client writes it (one schema per operation it may name, with that operation's
 * parameters) and an item's answer (`{index, status: 200, data}` with the data schema of its
 * operation, or `{index, status, errors}` with the envelope's entries).
 */
import { BATCH_REGISTRY } from './batch-registry.js';
import { type JsonSchema, objectSchema } from './schemas.js';

export { batchEntrySchema } from './schemas.js';

/** The item a client writes: `{operation, params}`, params as the named operation takes them (JSON values). */
export function batchItemRequestSchema(): JsonSchema {
  return {
    oneOf: BATCH_REGISTRY.items.map((item) => ({
      type: 'object',
      properties: { operation: { const: item.name, description: item.op.summary }, params: objectSchema(item.op.parameters) },
      required: ['operation'],
      additionalProperties: false,
    })),
  };
}

/** The body (or tool arguments) of a batch: 1 to `maxItems` items, each by `item`. */
export function batchBodySchema(item: JsonSchema, maxItems = BATCH_REGISTRY.maxItems): JsonSchema {
  return {
    type: 'object',
    properties: { items: { type: 'array', minItems: 1, maxItems, items: item } },
    required: ['items'],
    additionalProperties: false,
  };
}

/** The answer of a whole batch: `{data: {retailBatch: {items: [entry]}}}`. */
export function batchResponseSchema(entry: JsonSchema): JsonSchema {
  const object = (properties: Record<string, JsonSchema>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
  return object({ data: object({ retailBatch: object({ items: { type: 'array', items: entry } }) }) });
}
