/**
 * The batch as the gateways see it, derived like the rest of the registry: its client-facing names
 * from BatchLookup's `(retail.v1.operation)` option, and the operations an item may name from
 * @retail/contract's BATCH_ITEM_KINDS, each matched to its registry operation by request message.
 * An item's `operation` is that operation's REST path after `/api/retail/` (`product`,
 * `product/offers`), so a client writes an item exactly as it would write the single call.
 */
import { BATCH_MAX_ITEMS, BATCH_OPERATION, type BatchItemKind, BATCH_ITEM_KINDS } from '@retail/contract';
import { type Operation, REGISTRY } from './registry.js';

/** Where the lookups' REST paths start; an item's operation name is the rest of its path. */
export const REST_PREFIX = '/api/retail/';

/** One operation a batch item may name. */
export interface BatchItemOperation {
  /** The item's `operation` on the wire: the REST path after `/api/retail/` (`product/offers`). */
  readonly name: string;
  /** The registry operation: its parameters, response message, data root, RPC name. */
  readonly op: Operation;
  /** Its cases in BatchItem and BatchItemResult. */
  readonly kind: BatchItemKind;
}

export interface BatchRegistry {
  readonly restPath: string;
  readonly operationId: string;
  readonly mcpTool: string;
  /** The GraphQL list field (`retailProducts`). */
  readonly graphqlField: string;
  readonly summary: string;
  /** Most items one batch may carry (100). */
  readonly maxItems: number;
  /** The operations an item may name, in the proto's order. */
  readonly items: readonly BatchItemOperation[];
}

function itemOperation(kind: BatchItemKind): BatchItemOperation {
  const op = REGISTRY.find((candidate) => candidate.request === kind.method.input);
  if (!op) throw new Error(`batch item ${kind.itemField.name}: no registry operation takes ${kind.method.input.typeName}`);
  if (!op.restPath.startsWith(REST_PREFIX)) throw new Error(`batch item ${kind.itemField.name}: REST path ${op.restPath} is not under ${REST_PREFIX}`);
  return { name: op.restPath.slice(REST_PREFIX.length), op, kind };
}

function buildBatchRegistry(): BatchRegistry {
  const { options } = BATCH_OPERATION;
  const [graphqlField, ...more] = options.graphqlFields;
  if (!graphqlField || more.length > 0 || options.httpMethod !== 'POST') throw new Error('BatchLookup needs one graphql field and http_method POST');
  return {
    restPath: options.restPath,
    operationId: options.operationId,
    mcpTool: options.mcpTool,
    graphqlField,
    summary: options.summary,
    maxItems: BATCH_MAX_ITEMS,
    items: BATCH_ITEM_KINDS.map(itemOperation),
  };
}

export const BATCH_REGISTRY: BatchRegistry = buildBatchRegistry();

const BY_NAME = new Map(BATCH_REGISTRY.items.map((item) => [item.name, item]));
const BY_RPC = new Map(BATCH_REGISTRY.items.map((item) => [item.op.name, item]));

/** The item operation a wire `operation` names (`product/offers`). */
export function batchItemNamed(name: string): BatchItemOperation | undefined {
  return BY_NAME.get(name);
}

/** The item operation of a registry operation, when a batch may run it (GraphQL plans product fields into one batch). */
export function batchItemOf(op: Operation): BatchItemOperation | undefined {
  return BY_RPC.get(op.name);
}
