/** The signed-in user's API keys and account: `/api/keys`, `/api/keys/:keyId`, `/api/account`. */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { KeyInfo } from '@retail/metering/api';
import { sessionOf } from './auth-routes.js';
import { ConsoleError } from './errors.js';
import type { ConsoleContext } from './context.js';
import { labelUsage } from './usage-labels.js';
import { parseCreateKey } from './validation.js';

const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Copies only the listed fields: whatever else a store might carry (hashes, say) never reaches the
 * page, and the full key is never part of a listing.
 */
export function publicKeyInfo(info: KeyInfo) {
  return {
    keyId: info.keyId,
    prefix: info.prefix,
    label: info.label ?? null,
    scopes: { operations: [...info.scopes.operations], interfaces: [...info.scopes.interfaces] },
    createdAt: info.createdAt,
    lastUsedAt: info.lastUsedAt ?? null,
    expiresAt: info.expiresAt ?? null,
    revokedAt: info.revokedAt ?? null,
  };
}

/** Middleware: the signed-in user's metering account into `res.locals.accountId`, or 401. */
export function createRequireAccount(ctx: ConsoleContext) {
  return async (_req: Request, res: Response, next: NextFunction) => {
    const userId = sessionOf(res)?.record.userId;
    const user = userId ? await ctx.users.getUser(userId) : undefined;
    if (!user) throw new ConsoleError(401, 'Sign in first');
    res.locals.accountId = user.accountId;
    next();
  };
}

export function createAccountRoutes(ctx: ConsoleContext): Router {
  const router = Router();
  const requireAccount = createRequireAccount(ctx);
  const accountOf = (res: Response) => res.locals.accountId as string;

  router.get('/keys', requireAccount, async (_req, res) => {
    const keys = await ctx.metering.admin.listKeys(accountOf(res));
    const newestFirst = [...keys].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    res.json({ data: { keys: newestFirst.map(publicKeyInfo) } });
  });

  router.post('/keys', requireAccount, async (req, res) => {
    const options = parseCreateKey(req.body);
    const created = await ctx.metering.admin.createKey(accountOf(res), options);
    // The only response that ever carries the full key.
    res.status(201).json({ data: { key: created.key, info: publicKeyInfo(created.info) } });
  });

  router.delete('/keys/:keyId', requireAccount, async (req, res) => {
    const keyId = String(req.params.keyId);
    if (!KEY_ID_PATTERN.test(keyId)) throw new ConsoleError(400, 'Key id is not valid', { path: ['keyId'] });
    const revoked = await ctx.metering.admin.revokeKey(accountOf(res), keyId);
    if (!revoked) throw new ConsoleError(404, 'No key with this id', { path: ['keyId'] });
    res.json({ data: { keyId, revoked: true } });
  });

  router.get('/account', requireAccount, async (_req, res) => {
    const summary = await ctx.metering.admin.summary(accountOf(res));
    res.json({ data: { accountId: summary.accountId, plan: summary.plan, balance: summary.balance, usage: summary.usage.map(labelUsage) } });
  });

  return router;
}
