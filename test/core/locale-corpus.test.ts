/**
 * The marketplace registry's rating and count readers on real page strings: the star-rating title
 * and the ratings-count text of every product page in the corpus (RETAIL_CORPUS), checked against
 * the page's golden `rating` and `ratingsTotal`. Strings only (found with two small regular
 * expressions, no DOM): parsing the page is the parsers' job.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMarketplaceByCode, parseCount, parseRating } from '../../core/src/marketplaces/index.js';

const corpus = process.env.RETAIL_CORPUS;
const skip = !corpus ? 'RETAIL_CORPUS is not set' : !existsSync(join(corpus, 'index.json')) ? `${corpus}/index.json is missing` : undefined;

interface Entry {
  id: string;
  operation: string;
  domain: string;
  page: string;
  golden: string;
}

describe.skipIf(skip !== undefined)(`rating and count texts of corpus product pages${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('read as the goldens say, on every marketplace present', () => {
    const entries = (JSON.parse(readFileSync(join(corpus!, 'index.json'), 'utf8')) as Entry[]).filter((e) => e.operation === 'product');
    const checked = new Map<string, number>();
    const misses: string[] = [];
    for (const entry of entries) {
      const m = findMarketplaceByCode(entry.domain);
      if (!m) continue; // AE pages are outside the 13 marketplaces
      const golden = JSON.parse(readFileSync(join(corpus!, 'golden', entry.golden), 'utf8')) as {
        expect?: { data?: { retailProduct?: { rating?: number; ratingsTotal?: number } } };
      };
      const expected = golden.expect?.data?.retailProduct;
      const html = readFileSync(join(corpus!, entry.page), 'utf8');
      const popoverTag = /<[^>]*\bid="acrPopover"[^>]*>/.exec(html)?.[0];
      const ratingText = popoverTag ? /\btitle="([^"]*)"/.exec(popoverTag)?.[1] : undefined;
      const countText = /\bid="acrCustomerReviewText"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';
      if (expected?.rating !== undefined && ratingText) {
        checked.set(entry.domain, (checked.get(entry.domain) ?? 0) + 1);
        if (parseRating(ratingText, m) !== expected.rating) misses.push(`${entry.id}: rating ${JSON.stringify(ratingText)} → ${parseRating(ratingText, m)}, golden ${expected.rating}`);
      }
      if (expected?.ratingsTotal !== undefined && countText.trim()) {
        checked.set(entry.domain, (checked.get(entry.domain) ?? 0) + 1);
        if (parseCount(countText, m) !== expected.ratingsTotal) misses.push(`${entry.id}: count ${JSON.stringify(countText)} → ${parseCount(countText, m)}, golden ${expected.ratingsTotal}`);
      }
    }
    console.log(`locale readers on corpus strings, checks per marketplace: ${[...checked].map(([d, n]) => `${d} ${n}`).join(', ')}`);
    expect(misses).toEqual([]);
    expect(checked.size).toBeGreaterThanOrEqual(5);
  });
});
