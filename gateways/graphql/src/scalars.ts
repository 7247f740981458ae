/**
 * GraphQL's `Int` is 32-bit, but counts (`ratingsTotal`, `totalResults`, sales estimates) are
 * int64 in the proto and JSON numbers on the wire. `SafeInt` carries any integer JavaScript can
 * hold exactly (|n| ≤ 2^53 − 1), so a count never overflows or turns into a string.
 */
import { GraphQLJSON } from 'graphql-scalars';
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

/** RFC 3339 with a zone, as @retail/contract renders a google.protobuf.Timestamp ("2026-11-25T10:00:00.250Z"). */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

function dateTime(value: unknown): string {
  if (typeof value !== 'string' || !RFC_3339.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value) ?? String(value)}: not an RFC 3339 date-time`);
  }
  return value;
}

/**
 * A point in time exactly as the wire carries it (REST, MCP and this gateway share one renderer):
 * an RFC 3339 string in UTC. A scalar of its own, not a bare String, so introspection and clients
 * know to read it as a time; the value is the same string.
 */
export const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A date-time as an RFC 3339 string in UTC, e.g. "2026-11-25T10:00:00.250Z" (the wire form of a google.protobuf.Timestamp).',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
  serialize: dateTime,
  parseValue: dateTime,
  parseLiteral(node: ValueNode): string {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string literal', { nodes: node });
    return dateTime(node.value);
  },
});

/**
 * Any JSON value (graphql-scalars' JSON): a job item's `params`, whose shape depends on the item's
 * operation, so no one input type can state it; the batch's item translation checks it instead.
 */
export const JsonValue = GraphQLJSON;
