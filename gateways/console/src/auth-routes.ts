/** Sign-up, sign-in, sign-out and the session probe: `/api/signup|signin|signout|session`. */
import { createHash, randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { ConsoleError } from './errors.js';
import type { ConsoleContext } from './context.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { ActiveSession } from './sessions.js';
import type { ConsoleUser } from './store.js';
import { parseSignIn, parseSignUp } from './validation.js';
import { revokeReferenceKeys } from './reference-keys.js';
import { isOperator } from './operator-role.js';

export const hashInvite = (code: string) => createHash('sha256').update(code).digest('base64url');

export const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** What the page may know about its user (`operator`: show the Operator view; the API checks again). */
const publicUser = (user: ConsoleUser) => ({ email: user.email, accountId: user.accountId, createdAt: user.createdAt, operator: isOperator(user) });

export function sessionOf(res: Response): ActiveSession | undefined {
  return res.locals.session as ActiveSession | undefined;
}

export function createAuthRoutes(ctx: ConsoleContext): Router {
  const router = Router();
  const { users, sessions, limiter, limits } = ctx;

  const signedIn = async (req: Request, res: Response, user: ConsoleUser, status: number) => {
    const session = await sessions.start(req, res, user.userId, sessionOf(res));
    res.status(status).json({ data: { user: publicUser(user), csrfToken: session.record.csrfToken, signupMode: ctx.signupMode } });
  };

  const checkInvite = async (code: string | undefined): Promise<string> => {
    if (!code) throw new ConsoleError(400, 'An invite code is required to sign up', { path: ['inviteCode'] });
    const codeHash = hashInvite(code);
    if (!ctx.configuredInvites.has(codeHash) && !(await users.hasInvite(codeHash))) {
      throw new ConsoleError(403, 'Invite code is not valid', { path: ['inviteCode'] });
    }
    return codeHash;
  };

  router.post('/signup', async (req, res) => {
    const input = parseSignUp(req.body);
    if (ctx.signupMode === 'closed') throw new ConsoleError(403, 'Sign-up is closed');
    const ip = clientIp(req);
    await limiter.check('signup-ip', ip, limits.signUpPerIp);
    const inviteHash = ctx.signupMode === 'invite' ? await checkInvite(input.inviteCode) : undefined;
    const passwordHash = await hashPassword(input.password, ctx.passwordCost);

    const userId = randomUUID();
    if (!(await users.reserveEmail(input.email, userId))) {
      throw new ConsoleError(409, 'An account with this email already exists', { path: ['email'] });
    }
    let accountId: string | undefined;
    let user: ConsoleUser;
    try {
      if (inviteHash && !(await users.consumeInvite(inviteHash))) {
        throw new ConsoleError(403, 'Invite code has already been used', { path: ['inviteCode'] });
      }
      ({ accountId } = await ctx.metering.admin.createAccount());
      user = { userId, email: input.email, passwordHash, accountId, createdAt: new Date(ctx.clock()).toISOString() };
      await users.saveUser(user);
    } catch (error) {
      // Undo what was done, best effort, so a half-made sign-up neither blocks the email nor
      // leaves an orphan account holding free units.
      if (accountId) await ctx.metering.admin.deleteAccount(accountId).catch(() => {});
      await users.releaseEmail(input.email, userId).catch(() => {});
      throw error;
    }
    await limiter.record('signup-ip', ip, limits.signUpPerIp);
    await signedIn(req, res, user, 201);
  });

  router.post('/signin', async (req, res) => {
    const input = parseSignIn(req.body);
    const ip = clientIp(req);
    await limiter.check('signin-email', input.email, limits.signInPerEmail);
    await limiter.check('signin-ip', ip, limits.signInPerIp);
    const user = await users.findUserByEmail(input.email);
    const matches = await verifyPassword(input.password, user?.passwordHash ?? (await ctx.decoyHash));
    if (!user || !matches) {
      await limiter.record('signin-email', input.email, limits.signInPerEmail);
      await limiter.record('signin-ip', ip, limits.signInPerIp);
      // One message for unknown email and wrong password: nobody learns which emails exist.
      throw new ConsoleError(401, 'Email or password is incorrect');
    }
    await limiter.clear('signin-email', input.email);
    await signedIn(req, res, user, 200);
  });

  router.post('/signout', async (req, res) => {
    const session = sessionOf(res);
    const user = session?.record.userId ? await users.getUser(session.record.userId) : undefined;
    // The API reference's keys live no longer than the sign-in they were made for. Best effort: a
    // ledger that cannot be reached must not keep anyone signed in, and the keys expire within the hour.
    if (user) await revokeReferenceKeys(ctx, user.accountId).catch(() => {});
    await sessions.end(req, res, session);
    res.json({ data: { signedOut: true } });
  });

  /** The page's first call: who am I, and the CSRF token (starting an anonymous session if needed). */
  router.get('/session', async (req, res) => {
    let session = sessionOf(res);
    const user = session?.record.userId ? await users.getUser(session.record.userId) : undefined;
    if (!session || (session.record.userId && !user)) session = await sessions.start(req, res, undefined, session);
    res.json({ data: { user: user ? publicUser(user) : null, csrfToken: session.record.csrfToken, signupMode: ctx.signupMode, watches: Boolean(ctx.watches), jobs: Boolean(ctx.jobs), usageHistory: Boolean(ctx.usageHistory), archive: Boolean(ctx.archive) } });
  });

  return router;
}
