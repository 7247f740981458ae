/**
 * The HTTP shape before any GraphQL work, each refusal the envelope with its own status: POST only
 * (405), a JSON body (415) within the size limit (413) that parses (400), one request per body
 * (batched arrays refused, 400). Apollo checks the fields of the request itself.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorEnvelope } from '@retail/contract';

/** Default body size limit: far above any real query, far below anything that costs memory. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

function sendEnvelope(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json(errorEnvelope(status, message));
}

export function requirePostJson(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return sendEnvelope(res, 405, 'use POST with a JSON body for GraphQL requests', { Allow: 'POST' });
  if (!req.is('application/json')) return sendEnvelope(res, 415, 'the request body must be JSON (Content-Type: application/json)');
  next();
}

/** express.json with the limit, answering its failures, and a batch, with the envelope. */
export function jsonBody(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void =>
    parse(req, res, (err?: unknown) => {
      const type = (err as { type?: string } | undefined)?.type;
      if (type === 'entity.too.large') return sendEnvelope(res, 413, `the request body exceeds the limit of ${limitBytes} bytes`);
      if (type === 'entity.parse.failed') return sendEnvelope(res, 400, 'the request body is not valid JSON');
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') return sendEnvelope(res, 415, 'unsupported body encoding');
      if (err) return sendEnvelope(res, 400, 'the request body could not be read');
      if (Array.isArray(req.body)) return sendEnvelope(res, 400, 'batched requests are not supported: send one operation per request (use aliases to ask for several items)');
      next();
    });
}
