/**
 * The batched calls of a request (the elements of `retailProducts`) as one BatchLookup through the
 * shared batch runner: each call's promise settles with its own item's outcome, so resolvers and
 * settlement treat it like any other call (charged when it succeeded).
 */
import { type CallFailure, type CallOptions, type CallSuccess, type CoreClient, batchItemOf, runBatchItems } from '@retail/gateway-shared';
import type { PlannedCall } from './plan.js';

type CallResult = CallSuccess | CallFailure;

export function runBatch(core: CoreClient, calls: readonly PlannedCall[], options: CallOptions): ReadonlyMap<PlannedCall, Promise<CallResult>> {
  const settle: ((result: CallResult) => void)[] = [];
  const results = new Map(calls.map((call, i) => [call, new Promise<CallResult>((resolve) => (settle[i] = resolve))]));
  const items = calls.map((call, index) => {
    const item = batchItemOf(call.operation);
    if (!item) throw new Error(`${call.operation.name} cannot be a batch item`);
    return { index, item, request: call.request, paramsPath: [] };
  });
  void runBatchItems(core, items, options, 'graphql', (outcome) => settle[outcome.index]?.(outcome));
  return results;
}
