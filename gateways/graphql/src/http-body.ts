/**
 * The HTTP shape of a GraphQL request before any GraphQL work: POST only, a JSON body within the
 * size limit, one operation (batched arrays refused), `query` a string. Every refusal is the
 * error envelope with its own status.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorEnvelope } from '@retail/contract';

/** Default body size limit: far above any real query, far below anything that costs memory. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

export interface GraphqlRequestBody {
  readonly query: string;
  readonly operationName?: string;
  readonly variables?: Record<string, unknown>;
}

export function sendEnvelope(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json(errorEnvelope(status, message));
}

/** POST with `Content-Type: application/json`, else 405 / 415. */
export function requirePostJson(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') {
    sendEnvelope(res, 405, 'use POST with a JSON body for GraphQL requests', { Allow: 'POST' });
    return;
  }
  if (!req.is('application/json')) {
    sendEnvelope(res, 415, 'the request body must be JSON (Content-Type: application/json)');
    return;
  }
  next();
}

/** express.json with the limit, answering its failures with the envelope. */
export function jsonBody(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { type?: string; status?: number };
      if (e.type === 'entity.too.large') return sendEnvelope(res, 413, `the request body exceeds the limit of ${limitBytes} bytes`);
      if (e.type === 'entity.parse.failed') return sendEnvelope(res, 400, 'the request body is not valid JSON');
      if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return sendEnvelope(res, 415, 'unsupported body encoding');
      return sendEnvelope(res, 400, 'the request body could not be read');
    });
  };
}

export type BodyCheck = { ok: true; body: GraphqlRequestBody } | { ok: false; message: string };

/** Checks the parsed body is one GraphQL request. */
export function checkBody(body: unknown): BodyCheck {
  if (Array.isArray(body)) return { ok: false, message: 'batched requests are not supported: send one operation per request (use aliases to ask for several items)' };
  if (body === null || typeof body !== 'object') return { ok: false, message: 'the body must be a JSON object with a query string' };
  const { query, operationName, variables } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return { ok: false, message: 'the body must carry the query as a non-empty string' };
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return { ok: false, message: 'operationName must be a string' };
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return { ok: false, message: 'variables must be a JSON object' };
  const { extensions } = body as Record<string, unknown>;
  if (extensions && typeof extensions === 'object' && 'persistedQuery' in extensions) {
    return { ok: false, message: 'persisted queries are not supported: send the query text' };
  }
  return {
    ok: true,
    body: {
      query,
      ...(typeof operationName === 'string' ? { operationName } : {}),
      ...(variables ? { variables: variables as Record<string, unknown> } : {}),
    },
  };
}
