/**
 * The HTTP shape before any GraphQL work, each refusal the envelope with its own status: POST only
 * (405), a JSON body (415) within the size limit (413) that parses (400), one request per body
 * (batched arrays refused, 400). Apollo checks the fields of the request itself.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errorEnvelope } from '@retail/contract';
import { jsonBody } from '@retail/gateway-shared';

function sendEnvelope(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json(errorEnvelope(status, message));
}

export function requirePostJson(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return sendEnvelope(res, 405, 'use POST with a JSON body for GraphQL requests', { Allow: 'POST' });
  if (!req.is('application/json')) return sendEnvelope(res, 415, 'the request body must be JSON (Content-Type: application/json)');
  next();
}

function refuseBatch(req: Request, res: Response, next: NextFunction): void {
  if (!Array.isArray(req.body)) return next();
  sendEnvelope(res, 400, 'batched requests are not supported: send one operation per request (use aliases to ask for several items)');
}

/** The shared JSON body parser, its refusals as the envelope, then one request per body. */
export function graphqlBody(limitBytes: number | undefined): RequestHandler[] {
  return [jsonBody((res, { status, message }) => sendEnvelope(res, status, message), limitBytes), refuseBatch];
}
