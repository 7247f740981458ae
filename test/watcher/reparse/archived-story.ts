/**
 * Archived pages and the history points that came from them, as the reparse tests start from: the
 * timeline product's page (test/replay/timeline-page.ts) archived as an older parser read it, and
 * each point stored with the price that parser missed.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { ArchivedPage } from '@retail/contract/page-archive-handoff';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { timelinePage } from '../../replay/timeline-page.js';
import { HOUR, newAsin } from '../refresh/fixtures.js';

export const SELLER = { sellerId: 'A1TIMELINEACME', sellerName: 'Acme Direct' } as const;
/** What the old parser did read right from the timeline page: all but the price. */
const READ_RIGHT = { isInStock: true, buyboxSellerId: SELLER.sellerId, rating: 4.4, ratingsTotal: 2048, bestSellersRank: 4321, bestSellersCategory: 'Home & Kitchen #12 in Electric Kettles' } as const;

/** Hourly refreshes of a new product from `base` at `prices` (each test its own hours): each page archived as the old parser read it, each point stored with its price unknown. */
export async function archivedStory(store: WatchStore, base: number, prices: readonly number[], body: (asin: string, price: number) => string = (asin, price) => timelinePage(asin, { inStock: true, price, ...SELLER })) {
  const asin = newAsin();
  const pages: ArchivedPage[] = [];
  for (const [i, price] of prices.entries()) {
    const fetchedAt = new Date(base + i * HOUR + 1_234);
    const page: ArchivedPage = {
      id: randomUUID(), url: `https://www.amazon.com/dp/${asin}`, domain: 'US', kind: 'product', identifier: asin, status: 200, fetchedAt,
      parser: 'product-page@1', contentType: 'text/html', encoding: 'gzip', body: gzipSync(body(asin, price)), reason: 'watch-refresh', missing: ['price'],
    };
    await store.pages.record(page);
    pages.push(page);
    await store.snapshots.record({ domain: 'US', asin, at: new Date(base + i * HOUR), retrievedAt: fetchedAt, ...READ_RIGHT, unknownFields: ['price'] });
  }
  return { asin, pages };
}

