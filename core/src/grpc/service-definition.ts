import type { DescService } from '@bufbuild/protobuf';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { configureTextEncoding, getTextEncoding } from '@bufbuild/protobuf/wire';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * Strings are encoded with Buffer.from (same bytes as TextEncoder, lone surrogates included): small
 * strings land in Node's shared buffer pool instead of one new ArrayBuffer each, which made encoding
 * a response about 40 % cheaper and its garbage far lighter (docs/rest.md, Benchmark). Decoding keeps
 * TextDecoder, the faster of the two. The setting is protobuf-es's own process-wide hook.
 */
const textEncoding = getTextEncoding();
configureTextEncoding({ ...textEncoding, encodeUtf8: (text: string) => Buffer.from(text, 'utf8') });

/** The bytes of a Uint8Array as a Buffer, without copying them. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A grpc-js ServiceDefinition straight from the protoc-gen-es descriptors, for unary and
 * server-streaming methods (BatchLookup): the wire is toBinary/fromBinary of @bufbuild/protobuf, so
 * core and gateways share one message type system.
 */
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
