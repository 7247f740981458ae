/**
 * CORS, closed unless origins are configured (CORS_ORIGINS): only listed origins get the
 * Access-Control headers, and credentials travel in headers (API-KEY, Authorization), never cookies.
 */
import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = 'API-KEY, Authorization, Content-Type, X-Request-Id';
const EXPOSED_HEADERS = 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, X-Units-Charged, X-Units-Remaining, X-Cache, X-Retrieved-At';

export function createCors(origins: readonly string[], applies: (path: string) => boolean): RequestHandler {
  const allowed = new Set(origins.filter((o) => o.length > 0));
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (allowed.size === 0 || !applies(req.path) || typeof origin !== 'string') return next();
    const any = allowed.has('*');
    if (!any && !allowed.has(origin)) return next();
    res.set('Access-Control-Allow-Origin', any ? '*' : origin);
    if (!any) res.vary('Origin');
    res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.set('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
