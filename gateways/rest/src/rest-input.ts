/**
 * What a REST client gave for one call, merged by name for the shared parameter checks: the path
 * segments the route names, then a GET's query string or another method's JSON body (docs/rest.md,
 * Watches). Only what no parameter rule can say is refused here, before the key is even read, like
 * an unreadable body: a body that is not a JSON object, a query string on a method that reads a
 * body, a path parameter given twice. Everything else (unknown, missing, malformed fields) is the
 * shared checks' 400, in the contract's order.
 */
import type { Request } from 'express';
import type { Operation } from '@retail/gateway-shared';
import { readQuery } from './query.js';

export type RestInput =
  | { readonly ok: true; readonly params: Record<string, unknown> }
  | { readonly ok: false; readonly message: string; readonly path: string[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function readRestInput(op: Operation, req: Request): RestInput {
  const query = readQuery(req.originalUrl);
  let given: Record<string, unknown>;
  if (op.httpMethod === 'GET') {
    given = query;
  } else {
    const extra = Object.keys(query)[0];
    if (extra !== undefined) return { ok: false, message: `${op.httpMethod} reads its parameters from the JSON body, not the query string`, path: ['query', extra] };
    const body: unknown = req.body ?? {};
    if (!isObject(body)) return { ok: false, message: 'the request body must be a JSON object', path: ['body'] };
    given = body;
  }
  const params: Record<string, unknown> = { ...given };
  const from = op.httpMethod === 'GET' ? 'query' : 'body';
  for (const p of op.pathParameters) {
    if (Object.hasOwn(given, p.name)) return { ok: false, message: `${p.name} is given in the path; do not repeat it in the ${from}`, path: [from, p.name] };
    params[p.name] = (req.params as Record<string, string>)[p.field.name];
  }
  return { ok: true, params };
}
