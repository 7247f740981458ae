/**
 * JSON Schemas of a batch, from the batch registry, for the OpenAPI document and the MCP tool: an
 * item as a client writes it (one schema per operation it may name, with that operation's
 * parameters) and an item's answer (`{index, status: 200, data}` with the data schema of its
 * operation, or `{index, status, errors}` with the envelope's entries).
 */
import { BATCH_REGISTRY } from './batch-registry.js';
import { ERROR_ENVELOPE_SCHEMA, type JsonSchema, type MessageSchemas, dataSchema, objectSchema } from './schemas.js';

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

const ERROR_ENTRIES = (ERROR_ENVELOPE_SCHEMA.properties as Record<string, JsonSchema>).errors as JsonSchema;
const INDEX = { type: 'integer', minimum: 0 };

/** One item's answer, message schemas collected in `schemas` (compact ones for the MCP tool). */
export function batchEntrySchema(schemas: MessageSchemas): JsonSchema {
  // anyOf, not oneOf: two operations may answer the same record (IdentifierPair).
  const data = { anyOf: BATCH_REGISTRY.items.map((item) => dataSchema(item.op, schemas)) };
  return {
    oneOf: [
      { type: 'object', properties: { index: INDEX, status: { const: 200 }, data }, required: ['index', 'status', 'data'], additionalProperties: false },
      { type: 'object', properties: { index: INDEX, status: { type: 'integer', minimum: 400, maximum: 599 }, errors: ERROR_ENTRIES }, required: ['index', 'status', 'errors'], additionalProperties: false },
    ],
  };
}

/** The answer of a whole batch: `{data: {retailBatch: {items: [entry]}}}`. */
export function batchResponseSchema(entry: JsonSchema): JsonSchema {
  const object = (properties: Record<string, JsonSchema>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
  return object({ data: object({ retailBatch: object({ items: { type: 'array', items: entry } }) }) });
}
