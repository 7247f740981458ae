import { describe, expect, it } from 'vitest';
import { usageBatchId, usageCloudEvent, usageEventId, type ExportedUsageRow } from './usage-events.js';

const row = (overrides: Partial<ExportedUsageRow> = {}): ExportedUsageRow => ({
  accountId: 'acc1', holdId: 'h.x.1', keyId: 'key_1', iface: 'rest', operations: ['GetProduct'], units: 1,
  settledAt: new Date('2026-11-28T10:00:00.123Z'), ...overrides,
});
const attributes = { source: 'retail-data', type: 'io.retaildata.usage.v1' };

describe('usage as CloudEvents', () => {
  it('one event per row, its id the row\'s key, the account as subject', () => {
    expect(usageCloudEvent(row(), attributes)).toEqual({
      specversion: '1.0', id: 'acc1/h.x.1', source: 'retail-data', type: 'io.retaildata.usage.v1', subject: 'acc1',
      time: '2026-11-28T10:00:00.123Z', datacontenttype: 'application/json',
      data: { accountId: 'acc1', keyId: 'key_1', operation: 'GetProduct', operations: ['GetProduct'], interface: 'rest', units: 1, calls: 1, holdId: 'h.x.1' },
    });
  });

  it('background work has no key; a call of several operations is mixed, one of one operation several times is that operation', () => {
    expect(usageCloudEvent(row({ keyId: '', iface: 'watches' }), attributes).data.keyId).toBeNull();
    expect(usageCloudEvent(row({ operations: ['GetProduct', 'GetOffers'], units: 2 }), attributes).data).toMatchObject({ operation: 'mixed', units: 2 });
    expect(usageCloudEvent(row({ operations: ['GetProduct', 'GetProduct'], units: 2 }), attributes).data.operation).toBe('GetProduct');
  });

  it('a batch id depends only on the events it carries, in order', () => {
    const events = [usageCloudEvent(row(), attributes), usageCloudEvent(row({ holdId: 'h.x.2' }), attributes)];
    expect(usageBatchId(events)).toBe(usageBatchId(events.map((event) => ({ id: event.id }))));
    expect(usageBatchId(events)).not.toBe(usageBatchId(events.slice(0, 1)));
    expect(usageBatchId(events)).not.toBe(usageBatchId([...events].reverse()));
    expect(usageBatchId(events)).toMatch(/^usage_2_[A-Za-z0-9_-]{32}$/);
    expect(usageEventId({ accountId: 'a', holdId: 'b' })).toBe('a/b');
  });
});
