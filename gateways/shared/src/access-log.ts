/**
 * The access log: one JSON line per request through the gateway's pino logger, written when the
 * response finishes: method, route, status, duration, request id and, once the ledger admitted the
 * key, its key id. Never the key and never the query string: the route is the path (the API's
 * paths carry no values) or, where paths do carry ids (the console), the interface alone.
 */
import type { RequestHandler } from 'express';
import type { GatewayLogger } from './logger.js';
import { routeOfPath } from './metrics.js';

/** What the pipeline learns about a request after the access log started it, keyed by the request's headers object. */
interface Learned {
  keyId?: string;
}

// Keyed by `req.headers`, the object every interface hands the pipeline as it is: no async context
// to propagate (issue 17 counts CPU per call) and nothing to thread through three gateways.
const learnedByHeaders = new WeakMap<object, Learned>();

/** Records the admitted key's id for the access log line of the request these headers came with. */
export function noteKeyId(headers: object, keyId: string): void {
  const learned = learnedByHeaders.get(headers);
  if (learned && keyId) learned.keyId = keyId;
}

/** Express middleware writing the access log line; costs nothing but a level check when info is off. */
export function logAccess(logger: GatewayLogger): RequestHandler {
  return (req, res, next) => {
    if (!logger.isLevelEnabled('info')) return next();
    const started = performance.now();
    const learned: Learned = {};
    learnedByHeaders.set(req.headers, learned);
    res.once('finish', () => {
      const requestId = res.getHeader('x-request-id');
      logger.info(
        {
          method: req.method,
          route: routeOfPath(req.path),
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(typeof requestId === 'string' ? { requestId } : {}),
          ...(learned.keyId ? { keyId: learned.keyId } : {}),
        },
        'request',
      );
    });
    next();
  };
}
