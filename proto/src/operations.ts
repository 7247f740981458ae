import type { DescMethod } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { type OperationOptions, operation } from './gen/retail/v1/options_pb.js';
import { RetailService } from './gen/retail/v1/service_pb.js';

/** One of the 17 operations: the RPC and its client-facing names from the proto options. */
export interface OperationDescriptor {
  readonly method: DescMethod;
  /** RPC name, e.g. "GetProduct". */
  readonly name: string;
  readonly options: OperationOptions;
}

/**
 * The operations as declared in proto/retail/v1/service.proto. This is the single list every
 * surface (core handlers, REST routes, OpenAPI, GraphQL, MCP) is derived from.
 */
export const OPERATIONS: readonly OperationDescriptor[] = RetailService.methods.map((method) => {
  if (!hasOption(method, operation)) {
    throw new Error(`RPC ${method.name} lacks the (retail.v1.operation) option`);
  }
  return { method, name: method.name, options: getOption(method, operation) };
});

export function operationByName(name: string): OperationDescriptor | undefined {
  return OPERATIONS.find((op) => op.name === name);
}
