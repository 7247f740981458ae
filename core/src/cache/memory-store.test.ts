import { describe, expect, it } from 'vitest';
import { createMemoryPageCache } from './memory-store.js';
import { decodeEntry, encodeEntry, pageCacheKey, type CacheEntry } from './page-cache.js';

const entry = (value: unknown): CacheEntry => ({ value, url: 'https://www.amazon.com/dp/X', retrievedAt: 1, freshUntil: 2 });

describe('createMemoryPageCache', () => {
  it('keeps structured records (bigint included) and hands each reader its own copy', async () => {
    const cache = createMemoryPageCache({ maxBytes: 1 << 20 });
    await cache.set('k', entry({ stock: 12n, list: [{ a: 1 }] }), 60_000);
    const first = await cache.get('k');
    (first!.value as { list: { a: number }[] }).list[0]!.a = 99;
    expect((await cache.get('k'))!.value).toEqual({ stock: 12n, list: [{ a: 1 }] });
  });

  it('is bounded by bytes: least recently used entries go first', async () => {
    const one = encodeEntry(entry('x'.repeat(1000))).length + 2;
    const cache = createMemoryPageCache({ maxBytes: one * 3 });
    for (const k of ['k1', 'k2', 'k3']) await cache.set(k, entry('x'.repeat(1000)), 60_000);
    await cache.get('k1'); // k2 is now the least recently used
    await cache.set('k4', entry('x'.repeat(1000)), 60_000);
    expect(cache.bytes).toBeLessThanOrEqual(one * 3);
    expect(await cache.get('k2')).toBeUndefined();
    expect(await cache.get('k1')).toBeDefined();
    // An entry larger than the whole bound is not kept at all.
    await cache.set('huge', entry('y'.repeat(one * 4)), 60_000);
    expect(await cache.get('huge')).toBeUndefined();
  });

  it('expires entries at their TTL (injected time)', async () => {
    let now = 1_000;
    const cache = createMemoryPageCache({ maxBytes: 1 << 20, now: () => now });
    await cache.set('k', entry(1), 500);
    now += 499;
    expect(await cache.get('k')).toBeDefined();
    now += 2;
    expect(await cache.get('k')).toBeUndefined();
  });
});

describe('page cache keys and codec', () => {
  it('a parser version change is a different key', () => {
    const url = 'https://www.amazon.com/dp/B000000001';
    expect(pageCacheKey(url, 'product', 1)).not.toBe(pageCacheKey(url, 'product', 2));
    expect(pageCacheKey(url, 'product', 1)).not.toBe(pageCacheKey(url, 'variants', 1));
  });
  it('round-trips an entry', () => {
    const e = entry({ a: [1, 2n, 'x'] });
    expect(decodeEntry(encodeEntry(e))).toEqual(e);
  });
});
