import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { type OperationOptions, operation } from './gen/retail/v1/options_pb.js';
import { RetailService } from './gen/retail/v1/service_pb.js';
import { JobService } from './gen/retail/v1/jobs_pb.js';
import { WatchService } from './gen/retail/v1/watch_pb.js';

/** One client-facing operation: the RPC and its client-facing names from the proto options. */
export interface OperationDescriptor {
  readonly method: DescMethod;
  /** RPC name, e.g. "GetProduct". */
  readonly name: string;
  readonly options: OperationOptions;
}

function descriptorOf(service: DescService, method: DescMethod): OperationDescriptor {
  if (!hasOption(method, operation)) {
    throw new Error(`RPC ${service.name}.${method.name} lacks the (retail.v1.operation) option`);
  }
  return { method, name: method.name, options: getOption(method, operation) };
}

function describe(service: DescService): OperationDescriptor[] {
  // Streaming RPCs are not operations of this list: StreamWatchEvents is gRPC-only (no option), and
  // BatchLookup, whose items are the operations, has its own descriptor below.
  return service.methods.filter((method) => method.methodKind === 'unary').map((method) => descriptorOf(service, method));
}

/**
 * The 17 lookups as declared in proto/retail/v1/service.proto, served by the core. Every surface
 * (core handlers, REST routes, OpenAPI, GraphQL, MCP) is derived from this list and the next.
 */
export const OPERATIONS: readonly OperationDescriptor[] = describe(RetailService);

/** The watch operations of proto/retail/v1/watch.proto (unary ones), served by the watcher. */
export const WATCH_OPERATIONS: readonly OperationDescriptor[] = describe(WatchService);

/**
 * BatchLookup (server-streaming): many per-product lookups in one call. Its option names the batch's
 * REST path (POST), GraphQL list field and MCP tool; its items are the operations of batch.ts.
 */
export const BATCH_OPERATION: OperationDescriptor = descriptorOf(RetailService, RetailService.method.batchLookup);

/** The bulk-job operations of proto/retail/v1/jobs.proto (unary ones), served by the watcher. */
export const JOB_OPERATIONS: readonly OperationDescriptor[] = describe(JobService);

export function operationByName(name: string): OperationDescriptor | undefined {
  return [...OPERATIONS, ...WATCH_OPERATIONS, ...JOB_OPERATIONS].find((op) => op.name === name);
}
