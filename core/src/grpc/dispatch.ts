import type { DescMethod, Message } from '@bufbuild/protobuf';
import { Metadata, type ServerUnaryCall, type ServerWritableStream, type UntypedServiceImplementation, type sendUnaryData } from '@grpc/grpc-js';
import { type BatchLookupRequest, DATA_INCIDENT_TRAILER, dataIncidentHeaderValue, dataIncidentStateName, type DataIncidentState, RetailService } from '@retail/contract';
import { type RpcName, isRpcName } from '../operations/index.js';
import { type BatchServices, serveBatchLookup } from './batch-lookup.js';
import { createBatchMetrics } from './batch-metrics.js';
import { callSignal } from './call-signal.js';
import { serveCoalescedCalls } from './coalesced-calls.js';
import type { OperationServices } from './run-operation.js';
import { coreErrorStatus } from './status.js';
import { serveTracedCall } from './unary-call.js';

export interface DispatchOptions extends OperationServices {
  /** Budget of a call that carries no deadline. */
  readonly defaultBudgetMs?: number;
  /** Items of one BatchLookup that run at once (BATCH_CONCURRENCY). */
  readonly batchConcurrency?: number;
}

/** The `x-data-incident` trailer of an answer over pages under incident (docs/data-health.md); none otherwise. */
function incidentTrailer(response: Message | undefined): Metadata | undefined {
  const incident = (response as { meta?: { dataIncident?: { state: DataIncidentState; fields: string[] } } } | undefined)?.meta?.dataIncident;
  const state = incident && dataIncidentStateName(incident.state);
  if (!incident || !state) return undefined;
  const trailer = new Metadata();
  trailer.set(DATA_INCIDENT_TRAILER, dataIncidentHeaderValue(state, incident.fields));
  return trailer;
}

function unaryMethod(rpc: RpcName, method: DescMethod, options: DispatchOptions) {
  return (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>) => {
    const deadline = callSignal(call, options.defaultBudgetMs);
    void serveTracedCall(rpc, method, call.request, { metadata: call.metadata, deadline }, options).then(({ response, error }) => {
      deadline.dispose();
      if (error) callback(coreErrorStatus(error));
      else callback(null, response, incidentTrailer(response));
    });
  };
}

/** grpc-js implementation of every RetailService method: the unary operations by RPC name, and BatchLookup. */
export function createRetailImplementation(options: DispatchOptions): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  const batch: BatchServices = { ...options, methods: new Map(RetailService.methods.map((m) => [m.name, m])), batchMetrics: createBatchMetrics() };
  for (const method of RetailService.methods) {
    const rpc = method.name;
    if (method === RetailService.method.batchLookup) {
      // A batch a gateway coalesced from unary calls is served as those calls (coalesced-calls.ts).
      implementation[rpc] = (call: ServerWritableStream<BatchLookupRequest, Message>) => void (call.request.calls.length > 0 ? serveCoalescedCalls(call, batch) : serveBatchLookup(call, batch));
      continue;
    }
    if (!isRpcName(rpc)) throw new Error(`RPC ${rpc} has no operation`);
    implementation[rpc] = unaryMethod(rpc, method, options);
  }
  return implementation;
}
