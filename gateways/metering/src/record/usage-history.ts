/**
 * Usage history from the record's usage log: calls and units per period (UTC day or hour), optionally
 * per key, operation and interface; only the grouped columns are in a row. The base of
 * `GET /api/account/usage`, the GraphQL `retailUsage` field, the MCP `retail_account_usage` tool, the
 * console's chart and the admin CLI's `usage history` (usage-query.ts reads and checks their input).
 */
import type { Queryable } from '@retail/database/database';
import { MeteringAdminError } from '../admin.js';
import { MAX_RANGE_MS, rangeTooLong, USAGE_GROUPS, type UsageGroup, type UsageHistoryQuery, type UsageHistoryRow } from '../usage-query.js';

/** Checks a query; a MeteringAdminError INVALID names what is wrong. */
export function checkUsageQuery(query: UsageHistoryQuery): void {
  const invalid = (message: string) => new MeteringAdminError('INVALID', message);
  if (!Number.isFinite(query.from) || !Number.isFinite(query.to)) throw invalid('from and to must be dates');
  if (query.to <= query.from) throw invalid('to must be after from');
  if (query.granularity !== 'day' && query.granularity !== 'hour') throw invalid('granularity must be day or hour');
  if (query.to - query.from > MAX_RANGE_MS[query.granularity]) {
    throw invalid(rangeTooLong(query.granularity));
  }
  const unknown = query.groupBy.filter((group) => !USAGE_GROUPS.includes(group));
  if (unknown.length > 0) throw invalid(`groupBy takes ${USAGE_GROUPS.join(', ')}; not ${unknown.join(', ')}`);
}

/** Column expression per group (fixed text, never the caller's). */
const COLUMN: Record<UsageGroup, string> = { key: 'key_id', operation: 'op', interface: 'interface' };

export async function usageHistory(db: Queryable, accountId: string, query: UsageHistoryQuery): Promise<UsageHistoryRow[]> {
  checkUsageQuery(query);
  const groups = USAGE_GROUPS.filter((group) => query.groupBy.includes(group));
  const byOperation = groups.includes('operation');
  const columns = groups.map((group) => `${COLUMN[group]} AS ${group}`);
  // Per operation, a call of several operations counts once for each (one unit each).
  const measures = byOperation ? 'count(*)::integer AS calls, count(*)::integer AS units' : 'count(*)::integer AS calls, sum(units)::integer AS units';
  const rows = await db.query<{ period: Date; key?: string; operation?: string; interface?: string; calls: number; units: number }>(
    `SELECT date_trunc('${query.granularity}', settled_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period${columns.map((c) => `, ${c}`).join('')}, ${measures}
     FROM ledger_usage${byOperation ? ', unnest(operations) AS op' : ''}
     WHERE account_id = $1 AND settled_at >= $2 AND settled_at < $3
     GROUP BY ${['1', ...groups.map((_, i) => String(i + 2))].join(', ')}
     ORDER BY ${['1', ...groups.map((_, i) => String(i + 2))].join(', ')}`,
    [accountId, new Date(query.from), new Date(query.to)],
  );
  return rows.map((row) => ({
    period: new Date(row.period).toISOString(),
    ...(groups.includes('key') && { keyId: row.key! }),
    ...(byOperation && { operation: row.operation! }),
    ...(groups.includes('interface') && { interface: row.interface! }),
    calls: row.calls,
    units: row.units,
  }));
}
