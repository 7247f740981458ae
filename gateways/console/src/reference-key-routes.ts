/**
 * `POST /api/reference-key`: a key for the API reference page (`/api/docs/`, same origin), so a
 * signed-in user finds the key field filled in. The service keeps only hashes of the user's own keys
 * (shown once, never recoverable), so what the page gets is a key made for it: REST only, one hour
 * at most (never past the session's end), labelled so the Keys view shows what it is. It is a POST
 * with the session's CSRF token like every state-changing call, under the session cookie that only
 * same-origin requests to `/console/api` carry, and the console sends no CORS headers: no other
 * origin can have one made or read it. An account holds at most two live ones (a new one revokes the
 * older ones: two tabs keep working, a page reloaded in a loop piles up nothing), and signing out
 * revokes them.
 */
import { Router } from 'express';
import { createRequireAccount } from './account-routes.js';
import { sessionOf } from './auth-routes.js';
import type { ConsoleContext } from './context.js';
import { REFERENCE_KEY_LABEL, REFERENCE_KEY_TTL_MS, revokeReferenceKeys } from './reference-keys.js';

/** Live reference keys an account keeps when a new one is made (so with it, two). */
const KEPT = 1;

export function createReferenceKeyRoutes(ctx: ConsoleContext): Router {
  const router = Router();
  router.post('/reference-key', createRequireAccount(ctx), async (_req, res) => {
    const accountId = res.locals.accountId as string;
    const sessionEnds = sessionOf(res)!.record.expiresAt; // signed in: requireAccount found its user
    await revokeReferenceKeys(ctx, accountId, KEPT);
    const expiresAt = new Date(Math.min(ctx.clock() + REFERENCE_KEY_TTL_MS, sessionEnds)).toISOString();
    const created = await ctx.metering.admin.createKey(accountId, {
      label: REFERENCE_KEY_LABEL,
      scopes: { operations: [], interfaces: ['rest'] },
      expiresAt,
    });
    res.status(201).json({ data: { key: created.key, keyId: created.info.keyId, expiresAt } });
  });
  return router;
}
