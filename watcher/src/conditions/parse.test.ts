import { describe, expect, it } from 'vitest';
import { MAX_CONDITIONS, parseConditions } from './parse.js';

describe('parseConditions', () => {
  it('accepts every type with the value it needs, and no conditions at all', () => {
    expect(parseConditions(undefined)).toEqual({ ok: true, conditions: [] });
    expect(parseConditions([])).toEqual({ ok: true, conditions: [] });
    const input = [
      { type: 'PRICE_AT_OR_BELOW', value: 19.99 },
      { type: 'PRICE_DROP_PERCENT', value: 15 },
      { type: 'BACK_IN_STOCK' },
      { type: 'OUT_OF_STOCK', value: null },
      { type: 'BUYBOX_SELLER_CHANGED' },
      { type: 'ANY_CHANGE' },
    ];
    expect(parseConditions(input)).toEqual({
      ok: true,
      conditions: [
        { type: 'PRICE_AT_OR_BELOW', value: 19.99 },
        { type: 'PRICE_DROP_PERCENT', value: 15 },
        { type: 'BACK_IN_STOCK' },
        { type: 'OUT_OF_STOCK' },
        { type: 'BUYBOX_SELLER_CHANGED' },
        { type: 'ANY_CHANGE' },
      ],
    });
  });

  it('names each offending item and field in the path', () => {
    const result = parseConditions([
      { type: 'PRICE_AT_OR_BELOW' },
      { type: 'PRICE_DROP_PERCENT', value: 150 },
      { type: 'BACK_IN_STOCK', value: 3 },
      { type: 'SOMETIMES' },
      'ANY_CHANGE',
      { type: 'ANY_CHANGE', extra: true },
    ]);
    expect(result).toEqual({
      ok: false,
      errors: [
        { message: 'PRICE_AT_OR_BELOW needs a value (a price in major units)', path: ['conditions', 0, 'value'] },
        { message: 'must be a percentage from 0.01 to 100', path: ['conditions', 1, 'value'] },
        { message: 'BACK_IN_STOCK takes no value', path: ['conditions', 2, 'value'] },
        { message: expect.stringMatching(/^must be one of PRICE_AT_OR_BELOW, /), path: ['conditions', 3, 'type'] },
        { message: 'must be an object with a type', path: ['conditions', 4] },
        { message: 'unknown field "extra"', path: ['conditions', 5, 'extra'] },
      ],
    });
  });

  it('refuses a value that is not a finite number, duplicates, non-lists and too many', () => {
    for (const value of ['8', Number.NaN, Number.POSITIVE_INFINITY, 0, -1]) {
      expect(parseConditions([{ type: 'PRICE_AT_OR_BELOW', value }]).ok).toBe(false);
    }
    expect(parseConditions([{ type: 'OUT_OF_STOCK' }, { type: 'OUT_OF_STOCK' }])).toEqual({
      ok: false,
      errors: [{ message: 'the same condition is given twice', path: ['conditions', 1] }],
    });
    expect(parseConditions({ type: 'OUT_OF_STOCK' })).toMatchObject({ ok: false, errors: [{ path: ['conditions'] }] });
    const many = Array.from({ length: MAX_CONDITIONS + 1 }, (_, i) => ({ type: 'PRICE_AT_OR_BELOW', value: i + 1 }));
    expect(parseConditions(many)).toMatchObject({ ok: false, errors: [{ message: `at most ${MAX_CONDITIONS} conditions` }] });
    // Two thresholds of one type are two conditions.
    expect(parseConditions([{ type: 'PRICE_AT_OR_BELOW', value: 9 }, { type: 'PRICE_AT_OR_BELOW', value: 8 }]).ok).toBe(true);
  });
});
