/**
 * The account console as one express Router, mountable at `/console` by the one-process
 * composition and by this package's own server (main.ts): the page (static HTML, one vanilla JS
 * module, CSS) and its JSON API under `/api/`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { errorEnvelope } from '@retail/contract';
import { DEFAULT_PLANS } from '@retail/metering';
import { THEME_STYLESHEET, serveFixedFiles } from '@retail/gateway-shared';
import { createAccountRoutes } from './account-routes.js';
import { createUsageRoutes } from './usage-routes.js';
import { createAttemptLimiter } from './attempt-limiter.js';
import { createAuthRoutes, hashInvite, sessionOf } from './auth-routes.js';
import { DEFAULT_LIMITS, SIGNUP_MODES, type ConsoleContext, type ConsoleOptions } from './context.js';
import { ConsoleError, createErrorHandler } from './errors.js';
import { createMemoryUserStore } from './memory-store.js';
import { createDecoyHash, DEFAULT_PASSWORD_COST } from './passwords.js';
import { createSessionManager } from './sessions.js';
import { createVendorRoutes } from './vendor.js';
import { createJobRoutes } from './job-routes.js';
import { createWatchRoutes } from './watch-routes.js';
import { createReferenceKeyRoutes } from './reference-key-routes.js';
import { createOperatorRoutes } from './operator-routes.js';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page's files: beside this module in src/, or the package's src/public when running from dist/. */
function publicDirectory(): string {
  const beside = fileURLToPath(new URL('./public', import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL('../src/public', import.meta.url));
}

function securityHeaders(secure: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.removeHeader('X-Powered-By'); // whatever app mounts us
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (secure || req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
    next();
  };
}

export function createConsole(options: ConsoleOptions): Router {
  if (!SIGNUP_MODES.includes(options.signupMode)) throw new Error(`signupMode must be one of ${SIGNUP_MODES.join(', ')}`);
  if (typeof options.sessionSecret !== 'string' || options.sessionSecret.length < 32) {
    throw new Error('sessionSecret must be at least 32 characters');
  }
  const clock = options.clock ?? Date.now;
  const users = options.users ?? createMemoryUserStore();
  const passwordCost = options.passwordCost ?? DEFAULT_PASSWORD_COST;
  const sessionTtlMs = options.sessionTtlMs ?? 12 * 3_600_000;
  const log = options.log ?? ((message, detail) => console.error(JSON.stringify({ level: 'error', message, ...detail })));
  const decoyHash = createDecoyHash(passwordCost);
  decoyHash.catch(() => {}); // awaited (and reported) on first use

  const ctx: ConsoleContext = {
    metering: options.metering,
    plans: options.plans ?? DEFAULT_PLANS,
    users,
    signupMode: options.signupMode,
    sessions: createSessionManager(
      users,
      { secret: options.sessionSecret, secureCookies: options.secureCookies, ttlMs: sessionTtlMs, anonymousTtlMs: 3_600_000 },
      clock,
    ),
    limiter: createAttemptLimiter(users, clock),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    passwordCost,
    configuredInvites: new Set((options.invites ?? []).filter((code) => code.trim() !== '').map((code) => hashInvite(code.trim()))),
    clock,
    decoyHash,
    ...(options.watches ? { watches: options.watches } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.usageHistory ? { usageHistory: options.usageHistory } : {}),
    ...(options.archive ? { archive: options.archive } : {}),
  };

  const api = Router();
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // A job's identifiers (up to a few MB of lines) are the one larger body; every other is small.
  api.use('/jobs', express.json({ limit: '4mb', type: 'application/json' }));
  api.use(express.json({ limit: '8kb', type: 'application/json' }));
  api.use(async (req, res, next) => {
    res.locals.session = await ctx.sessions.read(req);
    next();
  });
  // Every state-changing request carries the session's synchronizer token in a header, which a
  // cross-site form or image cannot set.
  api.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const session = sessionOf(res);
    if (!session || !ctx.sessions.csrfMatches(req, session)) {
      throw new ConsoleError(403, 'Missing or invalid CSRF token; reload the page');
    }
    next();
  });
  api.use(createAuthRoutes(ctx));
  api.use(createUsageRoutes(ctx));
  api.use(createAccountRoutes(ctx));
  api.use(createReferenceKeyRoutes(ctx));
  if (ctx.watches) api.use(createWatchRoutes(ctx, ctx.watches));
  if (ctx.jobs) api.use(createJobRoutes(ctx, ctx.jobs));
  // Always mounted: a non-operator gets 403 whatever the deployment, and without an archive an operator gets 501.
  api.use(createOperatorRoutes(ctx, ctx.archive));
  api.use((_req, res) => {
    res.status(404).json(errorEnvelope(404, 'Not found'));
  });
  api.use(createErrorHandler(log));

  const router = Router();
  router.use(securityHeaders(options.secureCookies));
  router.use((req, res, next) => {
    res.locals.consoleBase = req.baseUrl; // where the console is mounted ('/console')
    next();
  });
  // `/console` → `/console/`, so the page's relative URLs resolve under the mount point.
  router.get('/', (req, res, next) => {
    if (req.originalUrl.split('?')[0]!.endsWith('/')) return next();
    res.redirect(308, `${req.baseUrl}/`);
  });
  router.use('/api', api);
  router.use('/vendor', createVendorRoutes());
  // The look the service's pages share (gateways/shared), beside the page's own files.
  router.get('/:name', serveFixedFiles({ 'theme.css': THEME_STYLESHEET }));
  router.use(express.static(publicDirectory(), { index: 'index.html', redirect: false, maxAge: 0 }));
  return router;
}
