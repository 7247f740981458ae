import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../model.js';
import { revisedPoint, reviseFields } from './point-revision.js';

const at = new Date('2026-03-01T12:00:00Z');
const point = (fields: Partial<Snapshot>): Snapshot => ({ domain: 'US', asin: 'B0TEST0001', at, retrievedAt: at, ...fields });
const usd = (value: number) => ({ value, currency: 'USD' });

describe('what a re-read of a page changes in its point', () => {
  it('gives an unknown field the value the current parser reads, and leaves it unknown when that parser reads nothing either', () => {
    const stored = point({ isInStock: true, unknownFields: ['price', 'rating'] });
    const revisions = reviseFields(stored, { price: usd(10), isInStock: true });
    expect(revisions).toEqual([{ field: 'price', oldValue: undefined, oldMark: 'unknown', newValue: usd(10) }]);
    expect(revisedPoint(stored, revisions)).toMatchObject({ price: usd(10), unknownFields: ['rating'], suspectFields: [], quality: 'revised' });
  });

  it('replaces a value read wrong (a price from the wrong block), and takes a reading of nothing as the page showing nothing', () => {
    const stored = point({ price: usd(1), isInStock: true, rating: 4.4 });
    const revisions = reviseFields(stored, { price: usd(10), isInStock: true });
    expect(revisions.map((r) => [r.field, r.oldValue, r.newValue])).toEqual([['price', usd(1), usd(10)], ['rating', 4.4, undefined]]);
    expect(revisedPoint(stored, revisions)).not.toHaveProperty('rating');
  });

  it('keeps a suspect value the re-read agrees with suspect: the same page cannot confirm itself', () => {
    const stored = point({ price: usd(1), suspectFields: ['price'] });
    expect(reviseFields(stored, { price: usd(1) })).toEqual([]);
    expect(reviseFields(stored, { price: usd(10) })).toEqual([{ field: 'price', oldValue: usd(1), oldMark: 'suspect', newValue: usd(10) }]);
  });

  it('changes nothing when the re-read agrees (so a second run has nothing to write), and never touches fields a product page does not give', () => {
    const stored = point({ price: usd(10), isInStock: true, listPrice: usd(12), offerCount: 3 });
    expect(reviseFields(stored, { price: usd(10), isInStock: true })).toEqual([]);
    expect(revisedPoint(stored, [])).toBe(stored);
  });
});
