/**
 * GraphQL's `Int` is 32-bit, but counts (`ratingsTotal`, `totalResults`, sales estimates) are
 * int64 in the proto and JSON numbers on the wire. `SafeInt` carries any integer JavaScript can
 * hold exactly (|n| ≤ 2^53 − 1), so a count never overflows or turns into a string.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from './graphql.js';

function coerce(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new GraphQLError(`SafeInt cannot represent ${String(value)}: not an integer within ±(2^53 − 1)`);
  }
  return n;
}

export const SafeInt = new GraphQLScalarType({
  name: 'SafeInt',
  description: 'An integer within ±(2^53 − 1), exact in JSON and JavaScript; used for counts.',
  specifiedByURL: 'https://tc39.es/ecma262/#sec-number.issafeinteger',
  serialize: coerce,
  parseValue: coerce,
  parseLiteral(node: ValueNode): number {
    if (node.kind !== Kind.INT) throw new GraphQLError('SafeInt must be an integer literal', { nodes: node });
    return coerce(Number(node.value));
  },
});
