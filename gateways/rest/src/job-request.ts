/**
 * What the bulk-job routes read of a request besides its body (the body's media type, the query
 * parameters each route takes), and their refusals in the envelope: a 400 or 415 of their own, or a
 * client error of the shared calls (a job that is not the account's: 404).
 */
import type { Request } from 'express';
import { ErrorReason } from '@retail/contract';
import { type CallResult, type ClientError, CSV_TYPE, NDJSON_TYPE } from '@retail/gateway-shared';
import type { JobBodyFormat } from './job-body.js';
import { readQuery } from './query.js';

/** The media types a create body may have, by what `type-is` matches. */
export function bodyFormat(req: Request): JobBodyFormat | undefined {
  const kind = req.is(['application/json', '+json', NDJSON_TYPE, 'application/jsonl', CSV_TYPE]);
  if (kind === false || kind === null) return undefined;
  if (kind === CSV_TYPE) return 'csv';
  return kind === NDJSON_TYPE || kind === 'application/jsonl' ? 'ndjson' : 'json';
}

export type QueryResult = { ok: true; values: Record<string, string> } | { ok: false; message: string; path: string[] };

/** The query parameters a route takes, each at most once; any other is a 400. */
export function queryOf(req: Request, allowed: readonly string[]): QueryResult {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(readQuery(req.originalUrl))) {
    if (!allowed.includes(name)) return { ok: false, message: allowed.length === 0 ? `${name}: this request takes its parameters from the body, not the query string` : `unknown parameter ${name}; this route takes ${allowed.join(', ')}`, path: ['query', name] };
    if (Array.isArray(value)) return { ok: false, message: `${name} must be given once`, path: ['query', name] };
    values[name] = value;
  }
  return { ok: true, values };
}

/** `format` is ndjson or csv, `cursor` an item index, `follow` true or false. */
export function resultsQueryErrors(values: Record<string, string>): { message: string; path: string[] }[] {
  const errors = [];
  if (values.format !== undefined && values.format !== 'ndjson' && values.format !== 'csv') errors.push({ message: 'format must be one of ndjson, csv', path: ['query', 'format'] });
  if (values.cursor !== undefined && !/^\d{1,9}$/.test(values.cursor)) errors.push({ message: 'cursor must be an item index (the index of the last line read)', path: ['query', 'cursor'] });
  if (values.follow !== undefined && values.follow !== 'true' && values.follow !== 'false') errors.push({ message: 'follow must be true or false', path: ['query', 'follow'] });
  return errors;
}

export type Refused = Extract<CallResult, { ok: false }>;

/** A refusal of the job routes' own (400, 413, 415), free, with the admitted call's headers if any. */
export const failed = (requestId: string, headers: Record<string, string>, status: number, message: string, path?: string[]): Refused => ({
  ok: false, status, reason: ErrorReason.INVALID_ARGUMENT, errors: [{ code: status, message, ...(path ? { path } : {}) }], headers: { ...headers, 'X-Request-Id': requestId }, unitsCharged: 0, requestId,
});

/** A shared call's client error as the route's refusal. */
export const fromClientError = (requestId: string, headers: Record<string, string>, error: ClientError): Refused => ({
  ...failed(requestId, headers, error.status, error.message, error.path),
  reason: error.reason,
  cause: error.cause,
  ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }),
});
