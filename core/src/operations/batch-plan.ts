import type { Message } from '@bufbuild/protobuf';
import { type BatchItem, BATCH_MAX_ITEMS, ErrorReason, RULE_MESSAGES, batchKindOfCase } from '@retail/contract';
import { CoreError, invalidArgument } from '../errors.js';
import { isRpcName, validateRequest } from './validate-request.js';
import type { IncidentPreference } from './incident-skip.js';
import type { FieldChoice } from './read-mask.js';
import type { RpcName } from './operation.js';

/** Identical items of a batch: one operation and one normalized request, run once for all their indexes. */
export interface BatchGroup {
  readonly rpc: RpcName;
  /** The validated request, as the RPC's handler takes it. */
  readonly request: IncidentPreference & FieldChoice & { readonly marketplace: { readonly host: string; readonly code: string }; readonly lookup?: { readonly kind: string } };
  /** The items it answers, in request order. */
  readonly indexes: number[];
}

/** An item refused before any work, with the error the unary call would have answered. */
export interface RefusedItem {
  readonly index: number;
  /** The RPC it named, when it named one. */
  readonly rpc?: RpcName;
  readonly error: CoreError;
}

export interface BatchPlan {
  readonly groups: readonly BatchGroup[];
  readonly refused: readonly RefusedItem[];
}

/**
 * What makes two validated requests the same call: the RPC and every normalized field, with the
 * marketplace by its code (the object carries tables) and bigints spelled out.
 */
function identityOf(rpc: string, request: object): string {
  return `${rpc}:${JSON.stringify(request, (key, value: unknown) => {
    if (key === 'marketplace' && value && typeof value === 'object') return (value as { code: string }).code;
    return typeof value === 'bigint' ? value.toString() : value;
  })}`;
}

/**
 * Validates every item of a BatchLookup exactly as its unary RPC validates its request (declared
 * rules, then the operation's normalizer), and groups identical ones. An item's failure is that
 * item's; only a count outside 1..BATCH_MAX_ITEMS refuses the whole batch (INVALID_ARGUMENT on `items`).
 */
export function planBatch(items: readonly BatchItem[]): BatchPlan {
  if (items.length === 0 || items.length > BATCH_MAX_ITEMS) throw invalidArgument(RULE_MESSAGES.listLength('items', 1, BATCH_MAX_ITEMS), 'items');
  const groups = new Map<string, BatchGroup>();
  const refused: RefusedItem[] = [];
  items.forEach((item, index) => {
    const rpc = item.request.case === undefined ? undefined : batchKindOfCase(item.request.case)?.method.name;
    if (rpc === undefined || !isRpcName(rpc)) {
      refused.push({ index, error: new CoreError(ErrorReason.INVALID_ARGUMENT, RULE_MESSAGES.batchItemOperation()) });
      return;
    }
    try {
      const request = validateRequest(rpc, item.request.value as Message) as BatchGroup['request'];
      const identity = identityOf(rpc, request);
      const group = groups.get(identity);
      if (group) group.indexes.push(index);
      else groups.set(identity, { rpc, request, indexes: [index] });
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      refused.push({ index, rpc, error });
    }
  });
  return { groups: [...groups.values()], refused };
}
