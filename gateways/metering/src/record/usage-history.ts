/**
 * Usage history from the record's usage log: calls and units per period (UTC day or hour), optionally
 * per key, operation and interface; only the grouped columns are in a row. The base of
 * `GET /api/account/usage` (issue 24, not served yet) and of the admin CLI's `usage history`.
 */
import type { Queryable } from '@retail/database/database';
import { MeteringAdminError } from '../admin.js';

export const USAGE_GROUPS = ['key', 'operation', 'interface'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageHistoryQuery {
  /** Epoch ms, inclusive. */
  readonly from: number;
  /** Epoch ms, exclusive. */
  readonly to: number;
  readonly granularity: 'day' | 'hour';
  readonly groupBy: readonly UsageGroup[];
}

export interface UsageHistoryRow {
  /** Start of the period, ISO 8601 UTC. */
  readonly period: string;
  readonly keyId?: string;
  readonly operation?: string;
  readonly interface?: string;
  readonly calls: number;
  readonly units: number;
}

/** The longest range a query may span: 13 months of days, 31 days of hours. */
export const MAX_RANGE_MS = { day: 400 * 86_400_000, hour: 31 * 86_400_000 } as const;

/** Checks a query; a MeteringAdminError INVALID names what is wrong. */
export function checkUsageQuery(query: UsageHistoryQuery): void {
  const invalid = (message: string) => new MeteringAdminError('INVALID', message);
  if (!Number.isFinite(query.from) || !Number.isFinite(query.to)) throw invalid('from and to must be dates');
  if (query.to <= query.from) throw invalid('to must be after from');
  if (query.granularity !== 'day' && query.granularity !== 'hour') throw invalid('granularity must be day or hour');
  if (query.to - query.from > MAX_RANGE_MS[query.granularity]) {
    throw invalid(query.granularity === 'day' ? 'a range of days may span at most 400 days' : 'a range of hours may span at most 31 days');
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

/** RFC 4180 CSV of the rows, with the header of the grouped columns only. */
export function usageCsv(rows: readonly UsageHistoryRow[], groupBy: readonly UsageGroup[]): string {
  const fields = ['period', ...USAGE_GROUPS.filter((g) => groupBy.includes(g)).map((g) => (g === 'key' ? 'keyId' : g)), 'calls', 'units'] as const;
  const cell = (value: unknown) => {
    const text = String(value ?? '');
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [fields.join(','), ...rows.map((row) => fields.map((f) => cell((row as unknown as Record<string, unknown>)[f])).join(','))].join('\r\n') + '\r\n';
}
