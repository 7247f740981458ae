/**
 * CORS for POST /api/mcp, closed unless origins are configured (CORS_ORIGINS; `*` for any):
 * only listed origins get the Access-Control headers, preflights are answered here, and keys
 * travel in headers, never cookies. (Same rules as the REST gateway's cors.ts, for POST.)
 */
import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = 'API-KEY, SERVICE-API-KEY, X-API-KEY, Authorization, Content-Type, Accept, X-Request-Id, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const EXPOSED_HEADERS = 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, X-Units-Charged, X-Units-Remaining, X-Cache, X-Retrieved-At, Mcp-Session-Id';

export function createCors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins.map((o) => o.trim()).filter((o) => o.length > 0));
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (allowed.size === 0 || typeof origin !== 'string') return next();
    const any = allowed.has('*');
    if (!any && !allowed.has(origin)) return next();
    res.set('Access-Control-Allow-Origin', any ? '*' : origin);
    if (!any) res.vary('Origin');
    res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.set('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
