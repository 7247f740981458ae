/**
 * Bad gRPC requests to the core, as bytes on the wire (fast-check, sampled from a fixed seed):
 * well-encoded request messages whose fields hold values outside their rules (strings of any
 * text, enum numbers the proto does not define, negative and huge integers), bytes that are not a
 * protobuf message at all, and calls without the service token.
 */
import { create, type DescField, type DescMessage, toBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { RetailService } from '@retail/contract';

export interface GrpcCase {
  readonly method: string;
  readonly bytes: Uint8Array;
  /** False for bytes that need not decode as the request message. */
  readonly wellEncoded: boolean;
  /** The service token is sent unless this says otherwise. */
  readonly token: 'valid' | 'missing' | 'wrong';
}

const METHODS = RetailService.methods;

function fieldValue(field: DescField): fc.Arbitrary<unknown> | undefined {
  const scalar = (): fc.Arbitrary<unknown> | undefined => {
    switch (field.fieldKind === 'list' ? field.listKind : field.fieldKind) {
      case 'enum':
        // Undefined numbers included: proto3 enums are open, the wire carries any int32.
        return fc.oneof(fc.integer({ min: -5, max: 40 }), fc.constantFrom(2147483647, -2147483648));
      case 'scalar': {
        const type = field.scalar!;
        // ScalarType: 9 string, 8 bool, 12 bytes; integer types otherwise (floats 1, 2).
        if (type === 9) return fc.string({ unit: 'grapheme', maxLength: 60 });
        if (type === 8) return fc.boolean();
        if (type === 12) return fc.uint8Array({ maxLength: 16 });
        if (type === 1 || type === 2) return fc.oneof(fc.double(), fc.constantFrom(-1, 0, 1e308));
        if (type === 3 || type === 4 || type === 6 || type === 16 || type === 18) {
          return fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(-1n, 0n, 101n)).map((v) => (type === 4 || type === 6 ? (v < 0n ? -v : v) : v));
        }
        if (type === 13 || type === 7) return fc.integer({ min: 0, max: 4294967295 });
        return fc.oneof(fc.integer({ min: -2147483648, max: 2147483647 }), fc.constantFrom(-1, 0, 101, 61));
      }
      default:
        return undefined; // nested messages are left unset
    }
  };
  const single = scalar();
  if (!single) return undefined;
  return field.fieldKind === 'list' ? fc.array(single, { maxLength: 4 }) : single;
}

function badMessage(input: DescMessage): fc.Arbitrary<Uint8Array> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of input.fields) {
    const value = fieldValue(field);
    if (value) fields[field.localName] = value;
  }
  return fc.record(fields, { requiredKeys: [] }).map((init) => {
    try {
      return toBinary(input, create(input, init as never));
    } catch {
      // A value the encoder refuses (an integer out of its range) becomes an empty message.
      return new Uint8Array();
    }
  });
}

export function grpcCases(): fc.Arbitrary<GrpcCase> {
  const method = fc.constantFrom(...METHODS);
  return fc.oneof(
    { weight: 6, arbitrary: method.chain((m) => badMessage(m.input).map((bytes): GrpcCase => ({ method: m.name, bytes, wellEncoded: true, token: 'valid' }))) },
    // Not a protobuf message: truncated varints, wrong wire types, random bytes.
    { weight: 2, arbitrary: fc.tuple(method, fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([m, bytes]): GrpcCase => ({ method: m.name, bytes, wellEncoded: false, token: 'valid' })) },
    { weight: 1, arbitrary: fc.tuple(method, fc.constantFrom<'missing' | 'wrong'>('missing', 'wrong')).map(([m, token]): GrpcCase => ({ method: m.name, bytes: new Uint8Array(), wellEncoded: true, token })) },
  );
}
