import { describe, expect, it } from 'vitest';
import { dayField, usageDay } from './store.js';

describe('the per-day usage counters', () => {
  it('key a day by operation and interface, and read the pair back', () => {
    expect(dayField('GetProduct', 'mcp')).toBe('GetProduct@mcp');
    expect(usageDay('2026-03-01', dayField('GetProduct', 'watcher'), 4)).toEqual({ date: '2026-03-01', operation: 'GetProduct', interface: 'watcher', calls: 4 });
  });

  it('read a counter written before interfaces were kept without one', () => {
    expect(usageDay('2026-03-01', 'GetProduct', 2)).toEqual({ date: '2026-03-01', operation: 'GetProduct', calls: 2 });
  });
});
