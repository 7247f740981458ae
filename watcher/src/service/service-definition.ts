/**
 * A grpc-js ServiceDefinition straight from the protoc-gen-es descriptors (toBinary/fromBinary of
 * @bufbuild/protobuf on the wire, one message type system with the gateways), for unary and
 * server-streaming methods. The core has its own unary-only builder; the watcher may not import it.
 */
import type { DescService } from '@bufbuild/protobuf';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function grpcServiceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary' && method.methodKind !== 'server_streaming') {
      throw new Error(`${service.typeName}/${method.name}: only unary and server-streaming RPCs are served`);
    }
    definition[method.name] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: method.methodKind === 'server_streaming',
      requestSerialize: (message) => asBuffer(toBinary(method.input, message as never)),
      requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
      responseSerialize: (message) => asBuffer(toBinary(method.output, message as never)),
      responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
      originalName: method.localName,
    };
  }
  return definition;
}
