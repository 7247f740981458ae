/**
 * The operator view's API (docs/console.md, "Operator view"): the watcher's page archive for console
 * users with the operator role, under `/api/operator/`. The role is read from the user store on every
 * request (operator-role.ts), so a revocation holds at once. Read-only and free: operators are not
 * customers, nothing is charged.
 *
 * The raw page is archived marketplace HTML: it is sent as a plain-text download in a sandbox
 * (Content-Type text/plain, attachment, nosniff, `Content-Security-Policy: sandbox`), never as HTML
 * in the console's origin, where its scripts would run with the operator's session.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { ArchiveApi } from './archive-api.js';
import { sessionOf } from './auth-routes.js';
import type { ConsoleContext } from './context.js';
import { ConsoleError } from './errors.js';
import { MARKETPLACES, MAX_LIST_LIMIT, PAGE_KINDS, parseListQuery, parsePageQuery } from './operator-input.js';
import { isOperator } from './operator-role.js';

/** Middleware: 401 signed out, 403 without the operator role (in the store now, not at sign-in). */
export function createRequireOperator(ctx: ConsoleContext) {
  return async (_req: Request, res: Response, next: NextFunction) => {
    const userId = sessionOf(res)?.record.userId;
    const user = userId ? await ctx.users.getUser(userId) : undefined;
    if (!user) throw new ConsoleError(401, 'Sign in first');
    if (!isOperator(user)) throw new ConsoleError(403, 'The operator view is for operators: ask for the role (npm run admin -- console-operators grant)');
    next();
  };
}

/** A download name from the page's own values, reduced to characters every file system and header take. */
const fileName = (parts: readonly string[]) => `${parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 150)}.html`;

export function createOperatorRoutes(ctx: ConsoleContext, archive: ArchiveApi | undefined): Router {
  const router = Router();
  router.use('/operator', createRequireOperator(ctx));
  const archiveOrRefusal = (): ArchiveApi => {
    if (!archive) throw new ConsoleError(501, 'The page archive is kept by the watcher, which this console does not reach (set WATCHER_ADDRESS)');
    return archive;
  };

  router.get('/operator/options', (_req, res) => {
    res.json({ data: { marketplaces: MARKETPLACES, kinds: PAGE_KINDS, maxListLimit: MAX_LIST_LIMIT, archive: Boolean(archive) } });
  });

  router.get('/operator/pages', async (req, res) => {
    const query = parseListQuery(req.query);
    res.json({ data: { pages: await archiveOrRefusal().listPages(query) } });
  });

  router.get('/operator/page', async (req, res) => {
    const { id, ...query } = parsePageQuery(req.query);
    const found = await archiveOrRefusal().findPage(query);
    if (!found || (id && found.page.id !== id)) throw new ConsoleError(404, `No archived ${query.kind} page of ${query.marketplace} ${query.identifier}`);
    res.json({ data: { page: found.page, parsed: found.parsed, contentType: found.contentType, htmlBytes: Buffer.byteLength(found.html) } });
  });

  router.get('/operator/page/raw', async (req, res) => {
    const { id, ...query } = parsePageQuery(req.query);
    const found = await archiveOrRefusal().findPage(query);
    if (!found || (id && found.page.id !== id)) throw new ConsoleError(404, `No archived ${query.kind} page of ${query.marketplace} ${query.identifier}`);
    const { page } = found;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${fileName([page.marketplace, page.kind, page.identifier, page.fetchedAt])}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Replaces the console's page policy for this answer: opened anyway, it runs nothing and has no origin.
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.send(found.html);
  });

  return router;
}
