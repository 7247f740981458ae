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

function describe(service: DescService): OperationDescriptor[] {
  // Streaming RPCs (StreamWatchEvents) are gRPC-only: they carry no operation option and no other
  // interface serves them.
  return service.methods.filter((method) => method.methodKind === 'unary').map((method) => {
    if (!hasOption(method, operation)) {
      throw new Error(`RPC ${service.name}.${method.name} lacks the (retail.v1.operation) option`);
    }
    return { method, name: method.name, options: getOption(method, operation) };
  });
}

/**
 * The 17 lookups as declared in proto/retail/v1/service.proto, served by the core. Every surface
 * (core handlers, REST routes, OpenAPI, GraphQL, MCP) is derived from this list and the next.
 */
export const OPERATIONS: readonly OperationDescriptor[] = describe(RetailService);

/** The watch operations of proto/retail/v1/watch.proto (unary ones), served by the watcher. */
export const WATCH_OPERATIONS: readonly OperationDescriptor[] = describe(WatchService);

/** The bulk-job operations of proto/retail/v1/jobs.proto (unary ones), served by the watcher. */
export const JOB_OPERATIONS: readonly OperationDescriptor[] = describe(JobService);

export function operationByName(name: string): OperationDescriptor | undefined {
  return [...OPERATIONS, ...WATCH_OPERATIONS, ...JOB_OPERATIONS].find((op) => op.name === name);
}
