/**
 * Content negotiation before any GraphQL work (graphql-over-HTTP: 406 when the client accepts no
 * media type the server can answer with). Apollo negotiates too, but only after the context, the
 * admission (units held) and the execution have run, and answers its 406 in its own shape; refusing
 * here means an unacceptable `Accept` costs nothing and gets the envelope.
 */
import type { NextFunction, Request, Response } from 'express';
import { errorEnvelope } from '@retail/contract';

/**
 * The media types Apollo Server 5 answers a single result with, exactly as it offers them to its
 * negotiator (`chooseContentTypeForSingleResultResponse`, not exported), parameters included, so
 * that this check and Apollo's agree on every `Accept` (content-negotiation.test.ts holds them to it).
 */
export const APOLLO_SINGLE_RESULT_MEDIA_TYPES = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'application/json; callbackSpec=1.0; charset=utf-8',
] as const;

export const NOT_ACCEPTABLE_MESSAGE =
  'the Accept header allows no media type this endpoint serves: application/json or application/graphql-response+json';

/** True when the request's `Accept` (absent: anything) allows a type Apollo can answer with. */
export function acceptsGraphqlResponse(req: Request): boolean {
  // express's req.accepts is the `accepts` package on the same `negotiator` Apollo uses.
  return req.accepts([...APOLLO_SINGLE_RESULT_MEDIA_TYPES]) !== false;
}

export function requireAcceptableResponseType(req: Request, res: Response, next: NextFunction): void {
  if (acceptsGraphqlResponse(req)) return next();
  res.status(406).json(errorEnvelope(406, NOT_ACCEPTABLE_MESSAGE));
}
