/**
 * `GET /api/account/usage`: the calling key's account's calls and units per UTC day or hour, optionally
 * per key, operation and interface, as JSON (`data.retailUsage.rows`) or CSV (`format=csv`). Free of
 * units, as `GET /api/account` (any valid key), but each read is a query of the record, so it takes one
 * token of the rate limit as a lookup does, and its parameter 400s answer after the key (401), the
 * account's state (403) and the rate limit (429), in the contract's order (pipeline.ts admitCall).
 * The query and its checks are the metering library's (usage-query.ts), shared with GraphQL and MCP.
 */
import type { RequestHandler, Response } from 'express';
import { admitRead, meteringHeaders, requestIdFrom } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { parseUsageQuery, usageCsv, type UsageQueryInput } from '@retail/metering/usage-query';
import { readQuery } from './query.js';

export const ACCOUNT_USAGE_PATH = '/api/account/usage';

/** The query string's parameters: those of the query, and the answer's format. */
const PARAMETERS = ['from', 'to', 'granularity', 'groupBy', 'format'] as const;
const FORMATS = ['json', 'csv'] as const;

type SendError = (res: Response, status: number, message: string, path?: string[], headers?: Record<string, string>) => void;

export function accountUsageRoute(meter: Meter, sendError: SendError, clock: () => number = Date.now): RequestHandler {
  return async (req, res) => {
    const requestId = requestIdFrom(req.headers);
    res.set('X-Request-Id', requestId);
    const credentials = meter.readCredentials(req.headers, 'rest');
    if (!credentials.ok) return sendError(res, credentials.denial.httpStatus, credentials.denial.message);
    // No interface check (''), as GET /api/account: the account's own data is open to any valid key.
    const admitted = await admitRead(meter, { headers: req.headers, key: credentials.key, iface: '' });
    if (!admitted.ok) {
      const { status, errors, retryAfterSeconds } = admitted.failure;
      return sendError(res, status, errors[0]?.message ?? 'request refused', undefined, meteringHeaders(meter, { requestId, rateLimit: admitted.rateLimit, charged: 0, retryAfterSeconds }));
    }
    // Every answer after the token (its 400s too) says where the account's bucket stands, as a free call's.
    res.set(meteringHeaders(meter, { requestId, rateLimit: admitted.rateLimit, charged: 0 }));
    const query = readQuery(req.originalUrl);
    for (const [name, value] of Object.entries(query)) {
      if (!(PARAMETERS as readonly string[]).includes(name)) return sendError(res, 400, `unknown parameter ${name}`, ['query', name]);
      // groupBy may be repeated (groupBy=key&groupBy=operation) as well as a comma list.
      if (Array.isArray(value) && name !== 'groupBy') return sendError(res, 400, `parameter ${name} is given more than once`, ['query', name]);
    }
    const format = (query.format as string | undefined) ?? 'json';
    if (!(FORMATS as readonly string[]).includes(format)) return sendError(res, 400, `format must be one of ${FORMATS.join(', ')}; got "${format}"`, ['query', 'format']);
    const groupBy = query.groupBy === undefined ? undefined : ([] as string[]).concat(query.groupBy).join(',');
    const parsed = parseUsageQuery({ ...(query as Omit<UsageQueryInput, 'groupBy'>), groupBy }, clock());
    if (!parsed.ok) return sendError(res, 400, parsed.message, ['query', parsed.parameter]);
    const rows = await meter.accountUsage(admitted.read, parsed.query);
    if ('httpStatus' in rows) {
      const retry: Record<string, string> = rows.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(rows.retryAfterSeconds) };
      return sendError(res, rows.httpStatus, rows.message, undefined, retry);
    }
    res.set('Cache-Control', 'no-store');
    if (format === 'csv') {
      res.type('text/csv; charset=utf-8; header=present').set('Content-Disposition', 'attachment; filename="usage.csv"');
      return res.send(usageCsv(rows, parsed.query.groupBy));
    }
    return res.json({ data: { retailUsage: { rows } } });
  };
}
