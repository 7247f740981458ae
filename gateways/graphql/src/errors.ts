/**
 * How errors leave (docs/contract.md, Errors): every `errors[]` entry carries `message`, `code` and
 * `extensions.code` (the HTTP status the same failure has on REST) and `path`; a response without
 * `data` never ran and leaves as the envelope `{ success: false, errors: [{ code, message, path? }] }`.
 * Anything that is neither an operation error nor a client error Apollo names is a generic 500.
 */
import { ApolloServerErrorCode as Apollo, unwrapResolverError } from '@apollo/server/errors';
import { RULE_MESSAGES } from '@retail/contract';
import { type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError, Kind } from './graphql.js';

/** Apollo's refusals of the request itself (document, operation, shape): 400. */
const CLIENT_ERRORS = new Set<unknown>([Apollo.GRAPHQL_PARSE_FAILED, Apollo.GRAPHQL_VALIDATION_FAILED, Apollo.BAD_USER_INPUT, Apollo.BAD_REQUEST, Apollo.OPERATION_RESOLUTION_FAILURE, Apollo.PERSISTED_QUERY_NOT_SUPPORTED]);
/** Apollo's own words ("PersistedQueryNotSupported") do not tell the client what to do instead. */
const PERSISTED_QUERY_REFUSAL = 'persisted queries are not supported: send the query text';

/**
 * graphql-js's refusal of a `String!` argument left out (ProvidedRequiredArgumentsRule, document
 * validation, before any rule of ours): it names the argument only in its words, so this reads it
 * back and answers the rule table's `required`, as REST and MCP do (rules.test.ts pins the wording).
 */
const MISSING_ARGUMENT = /^Field "[^"]+" argument "([^"]+)" of type "[^"]+" is required, but it was not provided\.$/;

export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const extensions = original instanceof GraphQLError ? original.extensions : {};
  const code = typeof extensions.code === 'number' ? extensions.code : CLIENT_ERRORS.has(extensions.code) ? 400 : 500;
  const missing = extensions.code === Apollo.GRAPHQL_VALIDATION_FAILED ? MISSING_ARGUMENT.exec(formatted.message)?.[1] : undefined;
  const message = code === 500 ? 'internal error' : missing ? RULE_MESSAGES.required(missing) : extensions.code === Apollo.PERSISTED_QUERY_NOT_SUPPORTED ? PERSISTED_QUERY_REFUSAL : formatted.message;
  // A document error about an argument (unknown, wrong literal, left out) names it in `path`, as REST names a parameter.
  const argument = original instanceof GraphQLError && !formatted.path ? original.nodes?.find((n) => n.kind === Kind.ARGUMENT) : undefined;
  const path = formatted.path ?? (argument?.kind === Kind.ARGUMENT ? [argument.name.value] : missing ? [missing] : undefined);
  // `path` is GraphQL's response path; the argument at fault, when the core named it, is `extensions.argumentPath`.
  const argumentPath = Array.isArray(extensions.argumentPath) ? { argumentPath: extensions.argumentPath } : {};
  const entry = { message, code, extensions: { code, ...argumentPath }, ...(path ? { path } : {}), ...(formatted.locations ? { locations: formatted.locations } : {}) };
  return entry;
}

/** Apollo's `stringifyResult`: a result that never ran (no `data`) is the envelope. */
export function stringifyResult(result: FormattedExecutionResult): string {
  if (result.data !== undefined) return JSON.stringify(result);
  const entries = (result.errors ?? []) as readonly (GraphQLFormattedError & { code?: number })[];
  return JSON.stringify({ success: false, errors: entries.map((e) => ({ code: e.code ?? 500, message: e.message, ...(e.path?.length ? { path: e.path } : {}) })) });
}
