/**
 * A grpc-js ServiceDefinition straight from the protoc-gen-es descriptors, for unary and
 * server-streaming methods: the wire is toBinary/fromBinary of @bufbuild/protobuf, so the servers
 * (the core's RetailService, the watcher's WatchService and JobService) and the gateways share one
 * message type system. Not exported from the package index (clients need no server code); the type
 * is structural, so the contract does not depend on grpc-js: it is what grpc-js's `ServiceDefinition` asks for.
 */
import { type DescService, fromBinary, toBinary } from '@bufbuild/protobuf';

export interface GrpcMethodDefinition {
  readonly path: string;
  readonly requestStream: false;
  readonly responseStream: boolean;
  readonly requestSerialize: (message: unknown) => Buffer;
  readonly requestDeserialize: (bytes: Buffer) => unknown;
  readonly responseSerialize: (message: unknown) => Buffer;
  readonly responseDeserialize: (bytes: Buffer) => unknown;
  readonly originalName: string;
}

/** The bytes of a Uint8Array as a Buffer, without copying them. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function grpcServiceDefinition(service: DescService): Record<string, GrpcMethodDefinition> {
  const definition: Record<string, GrpcMethodDefinition> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary' && method.methodKind !== 'server_streaming') {
      throw new Error(`${service.typeName}/${method.name}: only unary and server-streaming RPCs are served`);
    }
    definition[method.name] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: method.methodKind === 'server_streaming',
      requestSerialize: (message) => asBuffer(toBinary(method.input, message as never)),
      requestDeserialize: (bytes) => fromBinary(method.input, bytes),
      responseSerialize: (message) => asBuffer(toBinary(method.output, message as never)),
      responseDeserialize: (bytes) => fromBinary(method.output, bytes),
      originalName: method.localName,
    };
  }
  return definition;
}
