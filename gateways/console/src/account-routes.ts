/** The signed-in user's API keys and account: `/api/keys`, `/api/keys/:keyId`, `/api/account`. */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { KeyInfo } from '@retail/metering/api';
import { sessionOf } from './auth-routes.js';
import { ConsoleError } from './errors.js';
import type { ConsoleContext } from './context.js';
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

export function createAccountRoutes(ctx: ConsoleContext): Router {
  const router = Router();

  /** The signed-in user's metering account, or 401. */
  const requireAccount = async (req: Request, res: Response, next: NextFunction) => {
    const userId = sessionOf(res)?.record.userId;
    const user = userId ? await ctx.users.getUser(userId) : undefined;
    if (!user) throw new ConsoleError(401, 'Sign in first');
    res.locals.accountId = user.accountId;
    next();
  };
  const accountOf = (res: Response) => res.locals.accountId as string;

  router.get('/keys', requireAccount, async (_req, res) => {
    const keys = await ctx.metering.admin.listKeys(accountOf(res));
    const newestFirst = [...keys].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    res.json({ data: { keys: newestFirst.map(publicKeyInfo) } });
  });

  router.post('/keys', requireAccount, async (req, res) => {
    const options = parseCreateKey(req.body);
    let created;
    try {
      created = await ctx.metering.admin.createKey(accountOf(res), options);
    } catch (error) {
      throw keyCreationError(error);
    }
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
    res.json({ data: { accountId: summary.accountId, plan: summary.plan, balance: summary.balance, usage: summary.usage } });
  });

  return router;
}

/**
 * The library's admin calls throw a MeteringAdminError (code KEY_LIMIT, NOT_FOUND or INVALID) for
 * misuse: those are the user's 4xx with the library's public message, not our 500.
 */
function keyCreationError(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'MeteringAdminError') return error;
  const code = (error as Error & { code?: string }).code;
  const status = code === 'KEY_LIMIT' ? 409 : code === 'NOT_FOUND' ? 404 : code === 'INVALID' ? 400 : 500;
  return status === 500 ? error : new ConsoleError(status, status === 409 ? 'This account has the maximum number of active keys; revoke one first' : error.message, { cause: error });
}
