/**
 * A bulk job's arguments as GraphQL and MCP take them: `items` in the item form of every interface,
 * `{"operation": "product", "params": {...}}` (the REST JSON body's), the other arguments (label,
 * webhook) as the registry declares them. The items go through the one item translation of job
 * bodies (job-items.ts), so a malformed item becomes that item's 400 result, never the call's; only
 * what no item can answer for refuses the call: `items` missing, not a list, or not 1 to 100,000.
 * The proto form of an item (`{product: {asin}}`) is the core's, never a client's.
 */
import { BatchItemSchema, RULE_MESSAGES } from '@retail/contract';
import { batchItemRequestSchema } from './batch-schemas.js';
import { BATCH_REGISTRY } from './batch-registry.js';
import { MAX_JOB_ITEMS, createJobItems, jobItemCountMessage } from './job-items.js';
import { type ParameterStyle, type ParseResult, parseParameters } from './parameters.js';
import type { Operation, Parameter } from './registry.js';
import { type JsonSchema, parametersJsonSchema } from './schemas.js';

/** Whether `p` carries batch items (CreateJob's `items`): a list of BatchItem messages. */
export const isJobItemsParameter = (p: Parameter): boolean => p.kind === 'object-list' && p.message?.typeName === BatchItemSchema.typeName;

/** The parameter of `op` that carries batch items, if it takes any. */
export function jobItemsParameter(op: Operation): Parameter | undefined {
  return op.parameters.find(isJobItemsParameter);
}

/** What a client reads of the item form, once for every interface that describes it. */
export const JOB_ITEM_FORM = [
  `Each item is {"operation", "params"}, as in a batch: operation one of ${BATCH_REGISTRY.items.map((item) => item.name).join(', ')}; params that lookup's arguments.`,
  'A malformed item does not refuse the call: it becomes that item\'s result with status 400.',
].join(' ');

/**
 * The arguments of a call (GraphQL or MCP) to the request init: for an operation that takes job
 * items, `items` read as the item form (runnable items and refused ones with their positions) and
 * the rest by parseParameters; any other operation by parseParameters alone.
 */
export function parseCallArguments(op: Operation, input: Record<string, unknown>, style: ParameterStyle): ParseResult {
  const itemsParameter = jobItemsParameter(op);
  if (!itemsParameter) return parseParameters(op, input, style);
  const { [itemsParameter.name]: given, ...rest } = input;
  const options = parseParameters(op, rest, style);
  const name = itemsParameter.name;
  const refused = (message: string): ParseResult => ({ ok: false, errors: [...(options.ok ? [] : options.errors), { message, path: [name] }] });
  if (given === undefined || given === null) return refused(RULE_MESSAGES.required(name));
  if (!Array.isArray(given)) return refused(RULE_MESSAGES.list(name));
  if (given.length === 0 || given.length > MAX_JOB_ITEMS) return refused(jobItemCountMessage(name));
  if (!options.ok) return options;
  const items = createJobItems();
  for (const value of given) items.add(value, { style });
  return { ok: true, request: { ...options.request, ...items.request() } };
}

/** The item form's list as a JSON Schema property: 1 to 100,000 items, each a batch item. */
export function jobItemsSchema(): JsonSchema {
  return { type: 'array', minItems: 1, maxItems: MAX_JOB_ITEMS, items: batchItemRequestSchema(), description: JOB_ITEM_FORM };
}

/** The arguments of `op` as one JSON Schema (the MCP inputSchema), with job items in the item form. */
export function argumentsJsonSchema(op: Operation): JsonSchema {
  const schema = parametersJsonSchema(op);
  const itemsParameter = jobItemsParameter(op);
  if (!itemsParameter) return schema;
  const required = [...new Set([...((schema.required as string[] | undefined) ?? []), itemsParameter.name])];
  return { ...schema, properties: { ...(schema.properties as Record<string, JsonSchema>), [itemsParameter.name]: jobItemsSchema() }, required };
}
