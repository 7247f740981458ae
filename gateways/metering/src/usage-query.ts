/**
 * The usage-history query as every interface takes it (REST query string, GraphQL arguments, MCP tool
 * arguments): its parameters, their defaults and their checks, declared once here so the three answer
 * the same question the same way and refuse the same input with the same message and parameter name.
 * No runtime dependency: the gateways load it without the record (usage-history.ts runs the query).
 */

export const USAGE_GROUPS = ['key', 'operation', 'interface'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
export const USAGE_GRANULARITIES = ['day', 'hour'] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

export interface UsageHistoryQuery {
  /** Epoch ms, inclusive. */
  readonly from: number;
  /** Epoch ms, exclusive. */
  readonly to: number;
  readonly granularity: UsageGranularity;
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

const DAY_MS = 86_400_000;

/** The longest range a query may span: 13 months of days (and a little), 31 days of hours. */
export const MAX_RANGE_MS = { day: 400 * DAY_MS, hour: 31 * DAY_MS } as const;

/** Days a query covers when it names neither end: today (UTC) and the 29 before it. */
export const DEFAULT_USAGE_DAYS = 30;

/** The refusal of a range longer than MAX_RANGE_MS allows, worded from it. */
export const rangeTooLong = (granularity: UsageGranularity) => `a range of ${granularity === 'day' ? 'days' : 'hours'} may span at most ${MAX_RANGE_MS[granularity] / DAY_MS} days`;

/** The parameters as a caller sends them (strings; groupBy a comma list or a list). */
export interface UsageQueryInput {
  readonly from?: string | null;
  readonly to?: string | null;
  readonly granularity?: string | null;
  readonly groupBy?: string | readonly string[] | null;
}

export type UsageQueryParse =
  | { readonly ok: true; readonly query: UsageHistoryQuery }
  | { readonly ok: false; readonly parameter: keyof UsageQueryInput; readonly message: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time (section 5.6): a zone is required, 'T' or ' ' may be either case.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A date (midnight UTC starting it) or an RFC 3339 timestamp, as epoch ms; undefined when it is
 * neither or names a day that does not exist (Date.parse would roll 2026-02-30 into March).
 */
function instant(text: string): { ms: number; dateOnly: boolean } | undefined {
  const date = DATE.exec(text) ?? DATE_TIME.exec(text);
  if (!date) return undefined;
  const [, y, m, d] = date.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return undefined;
  const ms = Date.parse(text.replace(' ', 'T').toUpperCase());
  return Number.isFinite(ms) ? { ms, dateOnly: DATE.test(text) } : undefined;
}

const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Reads and checks a query. Defaults: granularity `day`, no grouping, `to` now, `from` the start of
 * the UTC day 29 days before `to`'s (30 days). A date as `to` includes that whole day.
 */
export function parseUsageQuery(input: UsageQueryInput, now: number): UsageQueryParse {
  const refuse = (parameter: keyof UsageQueryInput, message: string): UsageQueryParse => ({ ok: false, parameter, message });
  const granularity = input.granularity ?? 'day';
  if (!(USAGE_GRANULARITIES as readonly string[]).includes(granularity)) {
    return refuse('granularity', `granularity must be one of ${USAGE_GRANULARITIES.join(', ')}; got "${granularity}"`);
  }
  const groupList = typeof input.groupBy === 'string' ? input.groupBy.split(',') : (input.groupBy ?? []);
  const groups = groupList.map((g) => g.trim()).filter((g) => g !== '');
  const unknown = groups.filter((g) => !(USAGE_GROUPS as readonly string[]).includes(g));
  if (unknown.length > 0) return refuse('groupBy', `groupBy takes ${USAGE_GROUPS.join(', ')}; not ${unknown.join(', ')}`);
  let to = now;
  if (input.to != null) {
    const parsed = instant(input.to);
    if (!parsed) return refuse('to', `to must be a date (2026-01-31) or an RFC 3339 timestamp (2026-01-31T00:00:00Z); got "${input.to}"`);
    to = parsed.dateOnly ? parsed.ms + DAY_MS : parsed.ms;
  }
  let from = startOfUtcDay(to - 1) - (DEFAULT_USAGE_DAYS - 1) * DAY_MS;
  if (input.from != null) {
    const parsed = instant(input.from);
    if (!parsed) return refuse('from', `from must be a date (2026-01-01) or an RFC 3339 timestamp (2026-01-01T00:00:00Z); got "${input.from}"`);
    from = parsed.ms;
  }
  if (to <= from) return refuse('to', 'to must be after from');
  const g = granularity as UsageGranularity;
  if (to - from > MAX_RANGE_MS[g]) {
    return refuse('from', rangeTooLong(g));
  }
  return { ok: true, query: { from, to, granularity: g, groupBy: USAGE_GROUPS.filter((group) => groups.includes(group)) } };
}

/** The CSV's and the row's name of each group's column. */
export const USAGE_COLUMN: Readonly<Record<UsageGroup, 'keyId' | 'operation' | 'interface'>> = { key: 'keyId', operation: 'operation', interface: 'interface' };

/** RFC 4180 CSV of the rows (CRLF line ends), with a header of period, the grouped columns, calls, units. */
export function usageCsv(rows: readonly UsageHistoryRow[], groupBy: readonly UsageGroup[]): string {
  const fields = ['period', ...USAGE_GROUPS.filter((g) => groupBy.includes(g)).map((g) => USAGE_COLUMN[g]), 'calls', 'units'] as const;
  const cell = (value: unknown) => {
    const text = String(value ?? '');
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [fields.join(','), ...rows.map((row) => fields.map((f) => cell((row as unknown as Record<string, unknown>)[f])).join(','))].join('\r\n') + '\r\n';
}
