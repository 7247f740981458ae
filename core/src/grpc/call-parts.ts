import { randomUUID } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { BACKGROUND_PRIORITY, FRESH_READ, PRIORITY_METADATA_KEY, READ_METADATA_KEY, REQUEST_ID_METADATA_KEY } from '@retail/contract';
import { SpanKind, contextFromMetadata } from '../telemetry/tracing.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's request id (gateways forward theirs) or a new one. */
export function requestIdOf(metadata: Metadata): string {
  const given = metadata.get(REQUEST_ID_METADATA_KEY)[0];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** A call marked `x-retail-priority: background` (a bulk job's item) yields to interactive calls at the host caps. */
export function priorityOf(metadata: Metadata): 'background' | undefined {
  return metadata.get(PRIORITY_METADATA_KEY)[0] === BACKGROUND_PRIORITY ? 'background' : undefined;
}

/** A call marked `x-retail-read: fresh` (the watcher's confirmation read) fetches its pages past the page cache. */
export function freshReadOf(metadata: Metadata): true | undefined {
  return metadata.get(READ_METADATA_KEY)[0] === FRESH_READ ? true : undefined;
}

/** The SERVER span of a call, child of the caller's trace (traceparent in the gRPC metadata). */
export function rpcSpanOptions(rpc: string, metadata: Metadata) {
  return {
    kind: SpanKind.SERVER,
    parent: contextFromMetadata(metadata),
    attributes: { 'rpc.system': 'grpc', 'rpc.service': 'retail.v1.RetailService', 'rpc.method': rpc },
  };
}
