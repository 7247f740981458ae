/** The usage query every interface reads (usage-query.ts): defaults, dates and timestamps, refusals naming the parameter. */
import { describe, expect, it } from 'vitest';
import { parseUsageQuery } from './usage-query.js';

const NOW = Date.parse('2026-03-15T10:30:00Z');
const ok = (input: Parameters<typeof parseUsageQuery>[0]) => {
  const parsed = parseUsageQuery(input, NOW);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.query;
};
const refused = (input: Parameters<typeof parseUsageQuery>[0]) => {
  const parsed = parseUsageQuery(input, NOW);
  return parsed.ok ? undefined : parsed.parameter;
};

describe('the usage query', () => {
  it('defaults to 30 UTC days up to now, by day, ungrouped', () => {
    expect(ok({})).toEqual({ from: Date.parse('2026-02-14T00:00:00Z'), to: NOW, granularity: 'day', groupBy: [] });
  });

  it('reads dates as UTC days (a date as `to` includes that day) and RFC 3339 timestamps with their zone', () => {
    expect(ok({ from: '2026-01-01', to: '2026-01-31' })).toMatchObject({ from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2026-02-01T00:00:00Z') });
    expect(ok({ from: '2026-03-15T08:00:00+02:00', to: '2026-03-15T10:00:00.5Z', granularity: 'hour' })).toMatchObject({ from: Date.parse('2026-03-15T06:00:00Z'), to: Date.parse('2026-03-15T10:00:00.500Z') });
    // Only `from`: up to now; only `to`: the 30 days before it.
    expect(ok({ to: '2026-01-31' }).from).toBe(Date.parse('2026-01-02T00:00:00Z'));
  });

  it('keeps the groups in one order, from a comma list or a list', () => {
    expect(ok({ groupBy: 'interface, key' }).groupBy).toEqual(['key', 'interface']);
    expect(ok({ groupBy: ['operation', 'key'] }).groupBy).toEqual(['key', 'operation']);
  });

  it('refuses what is not a date, a day that does not exist, a timestamp without zone, an empty or too long range, unknown values', () => {
    expect(refused({ from: 'yesterday' })).toBe('from');
    expect(refused({ from: '2026-02-30' })).toBe('from');
    expect(refused({ to: '2026-03-01T00:00:00' })).toBe('to');
    expect(refused({ from: '2026-03-01T00:00:00Z', to: '2026-03-01T00:00:00Z' })).toBe('to');
    expect(refused({ from: '2025-01-01', to: '2026-03-01' })).toBe('from');
    expect(ok({ from: '2025-02-01', to: '2026-03-01' }).granularity).toBe('day'); // 13 months fit
    expect(refused({ from: '2026-01-01', to: '2026-02-15', granularity: 'hour' })).toBe('from');
    expect(refused({ granularity: 'week' })).toBe('granularity');
    expect(refused({ groupBy: 'key,account' })).toBe('groupBy');
  });
});
