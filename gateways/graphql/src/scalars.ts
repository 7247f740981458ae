/**
 * GraphQL's `Int` is 32-bit, but counts (`ratingsTotal`, `totalResults`, sales estimates) are
 * int64 in the proto and JSON numbers on the wire. `SafeInt` carries any integer JavaScript can
 * hold exactly (|n| ≤ 2^53 − 1), so a count never overflows or turns into a string.
 */
import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from './graphql.js';

/** The literal kinds a checked scalar accepts, and how its text becomes the value the check reads. */
const LITERALS = {
  [Kind.INT]: { what: 'an integer', value: Number },
  [Kind.STRING]: { what: 'a string', value: String },
} as const;

/**
 * A scalar that is the same value in and out: results, variables and arguments (literals of one kind)
 * all go through `check`, which returns the value or throws a GraphQLError that says what it is not.
 */
function checkedScalar<T>(
  about: { name: string; description: string; specifiedByURL: string },
  literal: keyof typeof LITERALS,
  check: (value: unknown) => T,
): GraphQLScalarType<T, T> {
  return new GraphQLScalarType<T, T>({
    ...about,
    serialize: check,
    parseValue: check,
    parseLiteral(node: ValueNode): T {
      if (node.kind !== literal) throw new GraphQLError(`${about.name} must be ${LITERALS[literal].what} literal`, { nodes: node });
      return check(LITERALS[literal].value(node.value));
    },
  });
}

export const SafeInt = checkedScalar({
  name: 'SafeInt',
  description: 'An integer within ±(2^53 − 1), exact in JSON and JavaScript; used for counts.',
  specifiedByURL: 'https://tc39.es/ecma262/#sec-number.issafeinteger',
}, Kind.INT, (value): number => {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new GraphQLError(`SafeInt cannot represent ${String(value)}: not an integer within ±(2^53 − 1)`);
  }
  return n;
});

/** RFC 3339 with a zone, as @retail/contract renders a google.protobuf.Timestamp ("2026-11-25T10:00:00.250Z"). */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A point in time exactly as the wire carries it (REST, MCP and this gateway share one renderer):
 * an RFC 3339 string in UTC. A scalar of its own, not a bare String, so introspection and clients
 * know to read it as a time; the value is the same string.
 */
export const DateTime = checkedScalar({
  name: 'DateTime',
  description: 'A date-time as an RFC 3339 string in UTC, e.g. "2026-11-25T10:00:00.250Z" (the wire form of a google.protobuf.Timestamp).',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
}, Kind.STRING, (value): string => {
  if (typeof value !== 'string' || !RFC_3339.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value) ?? String(value)}: not an RFC 3339 date-time`);
  }
  return value;
});

/**
 * Any JSON value (graphql-scalars' JSON): a job item's `params`, whose shape depends on the item's
 * operation, so no one input type can state it; the batch's item translation checks it instead.
 */
export const JsonValue = GraphQLJSON;
