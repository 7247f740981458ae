/**
 * How errors leave the gateway (CONTRACT.md, Errors). Every `errors[]` entry carries `message`,
 * `code` and `extensions.code` (the HTTP status the same failure has on REST) and `path`. A
 * response without `data` is a request-level refusal and leaves as the envelope
 * `{ success: false, errors: [{ code, message, path? }] }`. Anything that is neither an operation
 * error nor a client error Apollo names is a fault of the service: a generic 500.
 */
import { ApolloServerErrorCode, unwrapResolverError } from '@apollo/server/errors';
import { type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError, Kind } from './graphql.js';

/** Apollo's refusals of the request itself (document, operation, request shape): 400. */
const CLIENT_ERRORS: ReadonlySet<unknown> = new Set<string>([
  ApolloServerErrorCode.GRAPHQL_PARSE_FAILED,
  ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
  ApolloServerErrorCode.BAD_USER_INPUT,
  ApolloServerErrorCode.BAD_REQUEST,
  ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE,
  ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED,
]);

/** Apollo's own wording where the contract has the gateway's. */
const MESSAGES: Readonly<Record<string, string>> = {
  [ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED]: 'persisted queries are not supported: send the query text',
};

export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const given = original instanceof GraphQLError ? original.extensions.code : undefined;
  const code = typeof given === 'number' ? given : CLIENT_ERRORS.has(given) ? 400 : 500;
  const message = code === 500 ? 'internal error' : (MESSAGES[String(given)] ?? formatted.message);
  const argumentPath = original instanceof GraphQLError ? original.extensions.argumentPath : undefined;
  // A document error about an argument (unknown, wrong literal) names it, as REST names a parameter.
  const argument = code === 400 && !formatted.path && original instanceof GraphQLError ? original.nodes?.find((n) => n.kind === Kind.ARGUMENT) : undefined;
  const path = formatted.path ?? (argument?.kind === Kind.ARGUMENT ? [argument.name.value] : undefined);
  const entry = {
    message,
    code,
    // `path` is GraphQL's response path; the argument at fault, when known, is `extensions.argumentPath`.
    extensions: { code, ...(Array.isArray(argumentPath) ? { argumentPath } : {}) },
    ...(path ? { path } : {}),
    ...(formatted.locations ? { locations: formatted.locations } : {}),
  };
  return entry as GraphQLFormattedError;
}

type Entry = GraphQLFormattedError & { readonly code?: number };

/** Apollo's `stringifyResult`: a result that never executed (no `data`) is the envelope. */
export function stringifyResult(result: FormattedExecutionResult): string {
  if (result.data !== undefined) return JSON.stringify(result);
  const errors = ((result.errors ?? []) as readonly Entry[]).map((e) => ({ code: e.code ?? 500, message: e.message, ...(e.path && e.path.length > 0 ? { path: e.path } : {}) }));
  return JSON.stringify({ success: false, errors });
}
