import type { Message } from '@bufbuild/protobuf';
import { RetailService } from '@retail/contract';
import { checkDeclaredRules } from '../validation/rules.js';
import type { RpcName } from './operation.js';
import { RPC_OPERATIONS, type ValidatedRequests } from './rpc-operations.js';

const METHODS = new Map(RetailService.methods.map((m) => [m.name, m]));

export const RPC_NAMES = Object.keys(RPC_OPERATIONS) as RpcName[];

export function isRpcName(name: string): name is RpcName {
  return Object.hasOwn(RPC_OPERATIONS, name);
}

/**
 * Validates one request message of RPC `rpc`: the rules declared in proto first, then the
 * operation's normalizer (semantic checks and defaults). Throws CoreError(INVALID_ARGUMENT) naming
 * the field.
 */
export function validateRequest<K extends RpcName>(rpc: K, message: Message): ValidatedRequests[K] {
  const method = METHODS.get(rpc);
  if (!method) throw new Error(`unknown RPC ${rpc}`);
  if (message.$typeName !== method.input.typeName) throw new Error(`${rpc} expects ${method.input.typeName}, got ${message.$typeName}`);
  checkDeclaredRules(method.input, message);
  // The type name was checked above, so the message is RPC `rpc`'s request.
  return (RPC_OPERATIONS[rpc].normalize as (m: Message) => ValidatedRequests[K])(message);
}
