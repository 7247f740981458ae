import type { Message } from '@bufbuild/protobuf';
import { RetailService } from '@retail/contract';
import { checkDeclaredRules } from '../validation/rules.js';
import type { IncidentPreference } from './incident-skip.js';
import { type FieldChoice, readMaskSelection } from './read-mask.js';
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
 * the field. The request fields every lookup shares past its normalizer (`skipOnIncident` and
 * `read_mask`, which the call's runner reads, not the handler) are carried over here, once for all operations.
 */
export function validateRequest<K extends RpcName>(rpc: K, message: Message): ValidatedRequests[K] & IncidentPreference & FieldChoice {
  const method = METHODS.get(rpc);
  if (!method) throw new Error(`unknown RPC ${rpc}`);
  if (message.$typeName !== method.input.typeName) throw new Error(`${rpc} expects ${method.input.typeName}, got ${message.$typeName}`);
  checkDeclaredRules(method.input, message);
  // The type name was checked above, so the message is RPC `rpc`'s request.
  const request = (RPC_OPERATIONS[rpc].normalize as (m: Message) => ValidatedRequests[K])(message);
  const { skipOnIncident } = message as IncidentPreference;
  const selection = readMaskSelection(method, message);
  return { ...request, ...(skipOnIncident ? { skipOnIncident } : {}), ...(selection ? { selection } : {}) };
}
