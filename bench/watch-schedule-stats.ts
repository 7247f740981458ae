/**
 * What one measured span of bench/watch-schedule.ts amounts to, from the workers' reports: schedule
 * lag (run start − due time), how long a run takes, how many times each product was read in each of
 * its slots due in the window (must be exactly once), and CPU per refresh.
 */
import type { WorkerReport } from './watch-schedule-protocol.js';

export interface Window {
  /** Due times in [fromMs, toMs) count; the window is a whole number of intervals long. */
  readonly fromMs: number;
  readonly toMs: number;
  readonly intervalMs: number;
  readonly products: number;
}

export interface Percentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export interface SpanStats {
  /** Product slots due in the window: products × intervals. */
  readonly slots: number;
  /**
   * Start − due time of the first attempts finished in the span, whatever their slot: while the
   * fleet keeps up these are the window's runs; when it falls behind, how far behind it runs.
   */
  readonly lagMs: Percentiles;
  /** How long one run takes, start to end: with the concurrency, what one process can do per second. */
  readonly runMs: Percentiles;
  /** Reads ÷ slots: fetches per product per interval. */
  readonly fetchesPerProductPerInterval: number;
  /** Slots read exactly once, more than once, never (lost, skipped, or not started by the report). */
  readonly readOnce: number;
  readonly readTwiceOrMore: number;
  readonly neverRead: number;
  /** Slots whose first attempt ran more than once (a duplicate run of the job system). */
  readonly duplicateStarts: number;
  /** Retried attempts started in the window (e.g. a product lock held by another run). */
  readonly retries: number;
  readonly failures: Readonly<Record<string, number>>;
  /** All workers' CPU over the span ÷ the runs they completed in it. */
  readonly cpuUsPerRefresh: number;
  readonly completed: number;
  readonly refreshesPerSecond: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

function countBy(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

export function spanStats(reports: readonly WorkerReport[], window: Window): SpanStats {
  const inWindow = (dueAt: number) => dueAt >= window.fromMs && dueAt < window.toMs;
  const allRuns = reports.flatMap((report) => report.runs);
  const runs = allRuns.filter(([, dueAt]) => inWindow(dueAt));
  const firstAttempts = runs.filter(([, , attempt]) => attempt === 1);
  const starts = countBy(firstAttempts.map(([asin, dueAt]) => `${asin}@${dueAt}`));
  const reads = countBy(reports.flatMap((report) => report.reads).filter(([, dueAt]) => inWindow(dueAt)).map(([asin, dueAt]) => `${asin}@${dueAt}`));
  const slots = window.products * Math.round((window.toMs - window.fromMs) / window.intervalMs);
  const readCounts = [...reads.values()];
  const failures: Record<string, number> = {};
  for (const report of reports) for (const [key, n] of Object.entries(report.failures)) failures[key] = (failures[key] ?? 0) + n;
  const completed = reports.reduce((sum, report) => sum + report.completed, 0);
  const cpuUs = reports.reduce((sum, report) => sum + report.cpuUs, 0);
  const spanMs = Math.max(...reports.map((report) => report.spanMs));
  return {
    slots,
    lagMs: percentiles(allRuns.filter(([, , attempt]) => attempt === 1).map(([, , , lag]) => lag)),
    runMs: percentiles(allRuns.map(([, , , , duration]) => duration)),
    fetchesPerProductPerInterval: readCounts.reduce((sum, n) => sum + n, 0) / slots,
    readOnce: readCounts.filter((n) => n === 1).length,
    readTwiceOrMore: readCounts.filter((n) => n > 1).length,
    neverRead: slots - reads.size,
    duplicateStarts: [...starts.values()].filter((n) => n > 1).length,
    retries: runs.length - firstAttempts.length,
    failures,
    cpuUsPerRefresh: cpuUs / completed,
    completed,
    refreshesPerSecond: completed / (spanMs / 1000),
  };
}
