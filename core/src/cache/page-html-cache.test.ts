import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { failures, request, scriptedFetcher } from '../../test/page-doubles.js';
import { createMemoryPageCache } from './memory-store.js';
import { withPageCache } from './page-html-cache.js';
import { createParsedPageSource } from './parsed-pages.js';

const big = `<html><body><div id="dp">${'<span class="a-price">€ 12,99</span>'.repeat(20_000)}</div></body></html>`;

describe('withPageCache (HTML entries for fetchPage handlers)', () => {
  it('MISS then HIT with the same page, stored compressed', async () => {
    let now = 1_000_000;
    const fetcher = scriptedFetcher([() => ({ status: 200, html: big, url: 'https://www.amazon.com/dp/B000000001', retrievedAt: new Date(5), fromCache: false })]);
    const cache = createMemoryPageCache({ maxBytes: 64 << 20, now: () => now });
    const pages = withPageCache(createParsedPageSource({ fetcher, cache, now: () => now }));
    const miss = await pages.fetchPage(request());
    const hit = await pages.fetchPage(request());
    expect([miss.fromCache, hit.fromCache]).toEqual([false, true]);
    expect(hit.html).toBe(big);
    expect(hit.retrievedAt).toEqual(new Date(5));
    expect(fetcher.calls).toBe(1);
    expect(cache.bytes).toBeLessThan(Buffer.byteLength(big) / 10);
    now += 16 * 60 * 1000; // past the product TTL
    await pages.fetchPage(request());
    expect(fetcher.calls).toBe(2);
  });

  it('marks a stale answer so the response says STALE; remembers NOT_FOUND', async () => {
    let now = 1_000_000;
    const fetcher = scriptedFetcher([
      () => ({ status: 200, html: '<html>ok</html>', url: 'https://www.amazon.com/dp/B000000001', retrievedAt: new Date(5), fromCache: false }),
      failures.timeout,
    ]);
    const pages = withPageCache(createParsedPageSource({ fetcher, cache: createMemoryPageCache({ maxBytes: 1 << 20, now: () => now }), now: () => now, staleSeconds: 600 }));
    await pages.fetchPage(request());
    now += 16 * 60 * 1000;
    expect(await pages.fetchPage(request())).toMatchObject({ html: '<html>ok</html>', fromCache: true, stale: true });

    const missing = scriptedFetcher([failures.notFound, () => ({ status: 200, html: 'x', url: 'u', retrievedAt: new Date(), fromCache: false })]);
    const negative = withPageCache(createParsedPageSource({ fetcher: missing, cache: createMemoryPageCache({ maxBytes: 1 << 20 }) }));
    for (let i = 0; i < 2; i++) await expect(negative.fetchPage(request('/dp/B0NOTFOUND'))).rejects.toMatchObject({ reason: ErrorReason.NOT_FOUND });
    expect(missing.calls).toBe(1);
  });
});
