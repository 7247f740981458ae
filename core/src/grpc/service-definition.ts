import type { DescService } from '@bufbuild/protobuf';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * A grpc-js ServiceDefinition straight from the protoc-gen-es descriptors: the wire is
 * toBinary/fromBinary of @bufbuild/protobuf, so core and gateways share one message type system.
 */
export function grpcServiceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary') throw new Error(`${service.typeName}/${method.name}: only unary RPCs are served`);
    definition[method.name] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (message) => Buffer.from(toBinary(method.input, message as never)),
      requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
      responseSerialize: (message) => Buffer.from(toBinary(method.output, message as never)),
      responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
      originalName: method.localName,
    };
  }
  return definition as ServiceDefinition;
}
