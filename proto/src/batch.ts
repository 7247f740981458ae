/**
 * BatchLookup's items as the descriptors declare them: each case of `BatchItem.request` is the
 * request message of one unary RPC, and the case of `BatchItemResult.result` holding that RPC's
 * response message carries its success. Nothing names an operation here: the pairs are found by
 * matching messages, so adding an operation to the batch is one oneof field in each message of
 * proto/retail/v1/service.proto. The core (which RPC runs an item), the gateways (the wire items)
 * and the watcher's bulk jobs all read this one table.
 */
import type { DescField, DescMethod } from '@bufbuild/protobuf';
import { BatchItemResultSchema, BatchItemSchema, RetailService } from './gen/retail/v1/service_pb.js';

/** Most items one BatchLookup (and so one REST, GraphQL or MCP batch) may carry. */
export const BATCH_MAX_ITEMS = 100;

/** Most items one bulk job (retail.v1.JobService CreateJob, with its refused items) may carry. */
export const JOB_MAX_ITEMS = 100_000;

/** One operation a batch item may run. */
export interface BatchItemKind {
  /** The unary RPC the item runs (GetProduct). */
  readonly method: DescMethod;
  /** Its case in `BatchItem.request` (localName `product`, `asinFromGtin`). */
  readonly itemField: DescField;
  /** The case of `BatchItemResult.result` that carries its response. */
  readonly resultField: DescField;
}

/** The case of `BatchItemResult.result` that carries a failed item's ErrorDetail. */
export const BATCH_ERROR_FIELD: DescField = fieldNamed(BatchItemResultSchema.fields, 'error');

function fieldNamed(fields: readonly DescField[], name: string): DescField {
  const field = fields.find((f) => f.name === name);
  if (!field) throw new Error(`retail.v1.BatchItemResult has no field ${name}`);
  return field;
}

function kindOf(itemField: DescField): BatchItemKind {
  const request = itemField.message;
  const method = RetailService.methods.find((m) => m.methodKind === 'unary' && m.input === request);
  if (!request || !method) throw new Error(`BatchItem.${itemField.name} is not the request of a unary RetailService RPC`);
  const resultField = BatchItemResultSchema.fields.find((f) => f.oneof?.name === 'result' && f.message === method.output);
  if (!resultField) throw new Error(`BatchItemResult has no case for ${method.output.typeName}`);
  return { method, itemField, resultField };
}

/** Every operation a batch item may run, in the order BatchItem declares them. */
export const BATCH_ITEM_KINDS: readonly BatchItemKind[] = BatchItemSchema.fields.filter((f) => f.oneof?.name === 'request').map(kindOf);

const BY_CASE = new Map(BATCH_ITEM_KINDS.map((k) => [k.itemField.localName, k]));
const BY_RPC = new Map(BATCH_ITEM_KINDS.map((k) => [k.method.name, k]));

/** The kind of a `BatchItem.request` case (`product`). */
export function batchKindOfCase(itemCase: string): BatchItemKind | undefined {
  return BY_CASE.get(itemCase);
}

/** The kind of an RPC (`GetProduct`), when a batch item may run it. */
export function batchKindOfRpc(rpc: string): BatchItemKind | undefined {
  return BY_RPC.get(rpc);
}
