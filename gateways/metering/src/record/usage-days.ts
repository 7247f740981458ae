/**
 * The account summary's recent days (calls per UTC day, operation and interface) as the record's
 * usage log has them, and how they meet the hot store's day counters. The counters answer at memory
 * speed but start empty wherever the store did (a restarted `npm start`, a flushed ledger Redis,
 * counters older than their retention); the log is the record of every charged call but trails the
 * counters by the hand-off's lag. So a day's count is the larger of the two: the counters while they
 * run ahead, the log for what they lost.
 */
import type { Queryable } from '@retail/database/database';
import type { UsageDay } from '../api.js';
import { usageHistory } from './usage-history.js';

const DAY_MS = 86_400_000;

/** The log's counts for `days` (UTC dates, newest first, as the summary asks). */
export async function recordedUsageDays(db: Queryable, accountId: string, days: readonly string[]): Promise<UsageDay[]> {
  if (days.length === 0) return [];
  const from = Date.parse(days[days.length - 1]!);
  const to = Date.parse(days[0]!) + DAY_MS;
  const rows = await usageHistory(db, accountId, { from, to, granularity: 'day', groupBy: ['operation', 'interface'] });
  return rows.map((row) => ({ date: row.period.slice(0, 10), operation: row.operation!, ...(row.interface ? { interface: row.interface } : {}), calls: row.calls }) as UsageDay);
}

const dayKey = (day: UsageDay) => `${day.date}\u0000${day.operation}\u0000${day.interface ?? ''}`;

/** The counters' days in their order, each the larger count of the two, then the days only the log has, newest first. */
export function mergeUsageDays(counted: readonly UsageDay[], recorded: readonly UsageDay[]): UsageDay[] {
  const fromLog = new Map(recorded.map((day) => [dayKey(day), day]));
  const merged = counted.map((day) => {
    const logged = fromLog.get(dayKey(day));
    fromLog.delete(dayKey(day));
    return logged && logged.calls > day.calls ? { ...day, calls: logged.calls } : day;
  });
  const onlyLogged = [...fromLog.values()].sort((a, b) => b.date.localeCompare(a.date) || a.operation.localeCompare(b.operation));
  return [...merged, ...onlyLogged];
}
