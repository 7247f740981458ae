/**
 * The HTTP shape of a GraphQL request before any GraphQL work: POST only, a JSON body within the
 * size limit, one request per body (batched arrays refused), `query` a non-empty string. Every
 * refusal is the error envelope with its own status. Apollo checks the rest of the request.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorEnvelope } from '@retail/contract';

/** Default body size limit: far above any real query, far below anything that costs memory. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

function sendEnvelope(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json(errorEnvelope(status, message));
}

/** POST with `Content-Type: application/json`, else 405 / 415. */
export function requirePostJson(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return sendEnvelope(res, 405, 'use POST with a JSON body for GraphQL requests', { Allow: 'POST' });
  if (!req.is('application/json')) return sendEnvelope(res, 415, 'the request body must be JSON (Content-Type: application/json)');
  next();
}

/** Why a parsed body is not one GraphQL request, or undefined when it is one. */
function bodyProblem(body: unknown): string | undefined {
  if (Array.isArray(body)) return 'batched requests are not supported: send one operation per request (use aliases to ask for several items)';
  if (body === null || typeof body !== 'object') return 'the body must be a JSON object with a query string';
  const { query, operationName, variables } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return 'the body must carry the query as a non-empty string';
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return 'operationName must be a string';
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return 'variables must be a JSON object';
  return undefined;
}

/** express.json with the limit, answering its failures and a body that is not one request with the envelope. */
export function jsonBody(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (err?: unknown) => {
      const type = (err as { type?: string } | undefined)?.type;
      if (type === 'entity.too.large') return sendEnvelope(res, 413, `the request body exceeds the limit of ${limitBytes} bytes`);
      if (type === 'entity.parse.failed') return sendEnvelope(res, 400, 'the request body is not valid JSON');
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') return sendEnvelope(res, 415, 'unsupported body encoding');
      const problem = err ? 'the request body could not be read' : bodyProblem(req.body);
      return problem ? sendEnvelope(res, 400, problem) : next();
    });
  };
}
