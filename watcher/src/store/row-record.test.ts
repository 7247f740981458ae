import { describe, expect, it } from 'vitest';
import { recordOfRow } from './row-record.js';

describe('recordOfRow', () => {
  it('names each column in camelCase and leaves NULL columns out, keeping other falsy values', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const record = recordOfRow({ id: 'w1', last_refresh_at: null, next_refresh_at: at, attempt_count: 0, label: '', webhook_url: null, is_in_stock: false });
    expect(record).toEqual({ id: 'w1', nextRefreshAt: at, attemptCount: 0, label: '', isInStock: false });
    expect(Object.keys(record)).not.toContain('lastRefreshAt');
  });
});
