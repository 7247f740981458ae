/**
 * Every `errors[]` entry carries `message`, `code` and `extensions.code` (the HTTP status the same
 * failure has on REST) and `path` (CONTRACT.md, Errors). Anything that is not a known operation or
 * document error is a fault of the service: a generic 500 whose text never leaks internals.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from './graphql.js';

export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const status = original instanceof GraphQLError && typeof original.extensions.code === 'number' ? original.extensions.code : undefined;
  // A GraphQLError without an original error and without a status is graphql-js's own (validation).
  // Note: request-level refusals never reach here; they are answered with the envelope before Apollo.
  const documentError = status === undefined && original instanceof GraphQLError && !original.originalError && !formatted.path;
  const code = status ?? (documentError ? 400 : 500);
  const message = status !== undefined || documentError ? formatted.message : 'internal error';
  const argumentPath = original instanceof GraphQLError ? original.extensions.argumentPath : undefined;
  const entry = {
    message,
    code,
    // `path` is GraphQL's response path; the argument at fault, when known, is `extensions.argumentPath`.
    extensions: { code, ...(Array.isArray(argumentPath) ? { argumentPath } : {}) },
    ...(formatted.path ? { path: formatted.path } : {}),
    ...(formatted.locations ? { locations: formatted.locations } : {}),
  };
  return entry as GraphQLFormattedError;
}
