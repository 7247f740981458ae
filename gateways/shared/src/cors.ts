/**
 * CORS for the gateways, closed unless origins are configured (CORS_ORIGINS; `*` for any): only
 * listed origins get the Access-Control headers, preflights are answered here, and credentials travel
 * in headers (API-KEY, Authorization), never cookies, so no Allow-Credentials is ever sent.
 */
import type { RequestHandler } from 'express';

/** Response headers a browser client may read: metering, rate limit and cache facts. */
const EXPOSED_HEADERS = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Units-Charged', 'X-Units-Remaining', 'X-Cache', 'X-Retrieved-At', 'X-Data-Incident'];

export interface CorsOptions {
  readonly origins: readonly string[];
  /** Methods the interface serves ("GET, HEAD" for REST, "POST" for GraphQL and MCP). */
  readonly methods: readonly string[];
  /** Request headers beyond API-KEY, Authorization, Content-Type and X-Request-Id. */
  readonly extraAllowedHeaders?: readonly string[];
  readonly extraExposedHeaders?: readonly string[];
  /** Paths the policy covers; default all the middleware sees. */
  readonly applies?: (path: string) => boolean;
}

export function createCors(options: CorsOptions): RequestHandler {
  const allowed = new Set(options.origins.map((o) => o.trim()).filter((o) => o.length > 0));
  const allowMethods = [...options.methods, 'OPTIONS'].join(', ');
  const allowHeaders = ['API-KEY', 'Authorization', 'Content-Type', 'X-Request-Id', ...(options.extraAllowedHeaders ?? [])].join(', ');
  const exposeHeaders = [...EXPOSED_HEADERS, ...(options.extraExposedHeaders ?? [])].join(', ');
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (allowed.size === 0 || typeof origin !== 'string' || (options.applies && !options.applies(req.path))) return next();
    const any = allowed.has('*');
    if (!any && !allowed.has(origin)) return next();
    res.set('Access-Control-Allow-Origin', any ? '*' : origin);
    if (!any) res.vary('Origin');
    res.set('Access-Control-Expose-Headers', exposeHeaders);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.set('Access-Control-Allow-Methods', allowMethods);
      res.set('Access-Control-Allow-Headers', allowHeaders);
      res.set('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
