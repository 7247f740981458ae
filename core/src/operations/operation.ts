import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import type { RetailService } from '@retail/contract';
import type { MarketplaceRequest } from '../validation/request-fields.js';
import type { OperationHandler } from './types.js';

type Methods = (typeof RetailService)['method'];

/**
 * The unary RPCs of RetailService, by their proto names (`GetProduct`); the generated service
 * declares them. Each is one operation. BatchLookup (server-streaming) is not: its items are
 * operations of this list (grpc/batch-lookup.ts).
 */
export type RpcName = Capitalize<Extract<{ [K in keyof Methods]: Methods[K]['methodKind'] extends 'unary' ? K : never }[keyof Methods], string>>;

type MethodOf<K extends RpcName> = (typeof RetailService)['method'][Uncapitalize<K>];

/** The request message of RPC `K`, as it arrives (the declared rules already checked). */
export type RequestMessage<K extends RpcName> = MessageShape<MethodOf<K>['input']>;

/** The response message init of RPC `K`. */
export type ResponseInit<K extends RpcName> = MessageInitShape<MethodOf<K>['output']>;

/** Marks an RPC that exists (validated) but is not built yet: it answers UNIMPLEMENTED. */
export const UNIMPLEMENTED = Symbol('unimplemented');

/**
 * One RPC as one unit: how its request message becomes the handler's request, and the handler.
 * `normalize` runs after the rules the proto declares passed (validation/rules.ts): the semantic
 * checks (check digits, URL hosts, price order) and the defaults; it throws CoreError(INVALID_ARGUMENT)
 * naming the field. `Req` is the validated request, the one type the two halves share.
 */
export interface Operation<K extends RpcName, Req extends MarketplaceRequest> {
  readonly rpc: K;
  readonly normalize: (message: RequestMessage<K>) => Req;
  readonly handle: OperationHandler<Req, ResponseInit<K>> | typeof UNIMPLEMENTED;
}

/** Declares RPC `rpc`'s operation; the RPC name types the message `normalize` gets and the response `handle` returns. */
export function defineOperation<K extends RpcName, Req extends MarketplaceRequest>(rpc: K, parts: Omit<Operation<K, Req>, 'rpc'>): Operation<K, Req> {
  return { rpc, ...parts };
}
