/**
 * `GET /console/api/account/usage`: the signed-in user's account's usage history for the page's
 * chart (and its CSV download), the rows `GET /api/account/usage` answers for a key, with the same
 * parameters and checks (the metering library's usage-query.ts), read with the console session.
 */
import { Router, type Request } from 'express';
import { parseUsageQuery, usageCsv, type UsageHistoryRow } from '@retail/metering/usage-query';
import { createRequireAccount } from './account-routes.js';
import type { ConsoleContext } from './context.js';
import { ConsoleError, badRequest } from './errors.js';

const PARAMETERS = new Set(['from', 'to', 'granularity', 'groupBy', 'format']);

/** The query string as written (the console may be mounted in an app with any query parser). */
function queryOf(req: Request): URLSearchParams {
  const at = req.originalUrl.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
}

export function createUsageRoutes(ctx: ConsoleContext): Router {
  const router = Router();
  const read = ctx.usageHistory;
  router.get('/account/usage', createRequireAccount(ctx), async (req, res) => {
    if (!read) throw new ConsoleError(501, 'Usage history is kept in the ledger\'s record, and this service has none');
    const query = queryOf(req);
    for (const name of query.keys()) if (!PARAMETERS.has(name)) throw badRequest(`unknown parameter ${name}`, ['query', name]);
    const format = query.get('format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw badRequest(`format must be one of json, csv; got "${format}"`, ['query', 'format']);
    const groupBy = query.getAll('groupBy').join(',');
    const parsed = parseUsageQuery({ from: query.get('from'), to: query.get('to'), granularity: query.get('granularity'), groupBy }, ctx.clock());
    if (!parsed.ok) throw badRequest(parsed.message, ['query', parsed.parameter]);
    let rows: readonly UsageHistoryRow[];
    try {
      rows = await read(res.locals.accountId as string, parsed.query);
    } catch (cause) {
      throw new ConsoleError(503, 'Usage history is unavailable right now; try again shortly', { retryAfterSeconds: 1, cause });
    }
    if (format === 'csv') {
      res.type('text/csv; charset=utf-8; header=present').set('Content-Disposition', 'attachment; filename="usage.csv"').send(usageCsv(rows, parsed.query.groupBy));
      return;
    }
    res.json({ data: { retailUsage: { rows } } });
  });
  return router;
}
