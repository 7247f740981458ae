export type { OperationContext, OperationHandler } from './types.js';
export { type Operation, type RequestMessage, type ResponseInit, type RpcName, UNIMPLEMENTED, defineOperation } from './operation.js';
export { HANDLERS, type HandlerFor, type HandlerTable, RPC_OPERATIONS, type ValidatedRequests } from './rpc-operations.js';
export { RPC_NAMES, isRpcName, validateRequest } from './validate-request.js';
