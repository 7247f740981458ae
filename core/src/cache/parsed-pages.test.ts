import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { createUpstreamMetrics } from '../outcomes/metrics.js';
import { failures, page, request, scriptedFetcher } from '../../test/page-doubles.js';
import { createMemoryPageCache } from './memory-store.js';
import { createParsedPageSource } from './parsed-pages.js';

function setup(script: Parameters<typeof scriptedFetcher>[0], extra: { staleSeconds?: number } = {}) {
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const fetcher = scriptedFetcher(script);
  const metrics = createUpstreamMetrics();
  const cache = createMemoryPageCache({ maxBytes: 1 << 20, now: clock.now });
  const source = createParsedPageSource({ fetcher, cache, now: clock.now, ttlSeconds: { product: 60 }, negativeTtlSeconds: 10, metrics, ...extra });
  let parses = 0;
  const parse = (p: { html: string }) => (parses++, { length: p.html.length, stock: 3n });
  return { clock, fetcher, source, parse, metrics, parses: () => parses };
}
const v1 = { id: 'product', version: 1 };

describe('createParsedPageSource', () => {
  it('one fetch and one parse, then fresh hits until the kind TTL ends', async () => {
    const s = setup([() => page(), () => page()]);
    const miss = await s.source.parsed(request(), v1, s.parse);
    expect(miss).toMatchObject({ fromCache: false, stale: false, value: { length: 13, stock: 3n }, url: 'https://www.amazon.com/dp/B000000001' });
    const hit = await s.source.parsed(request(), v1, s.parse);
    expect(hit).toMatchObject({ fromCache: true, stale: false, value: { length: 13, stock: 3n } });
    expect(hit.retrievedAt.getTime()).toBe(0);
    s.clock.advance(60_001);
    expect((await s.source.parsed(request(), v1, s.parse)).fromCache).toBe(false);
    expect([s.fetcher.calls, s.parses()]).toEqual([2, 2]);
  });

  it('a new parser version never reads the old records', async () => {
    const s = setup([() => page()]);
    await s.source.parsed(request(), v1, s.parse);
    expect((await s.source.parsed(request(), { id: 'product', version: 2 }, s.parse)).fromCache).toBe(false);
    expect(s.fetcher.calls).toBe(2);
  });

  it('concurrent identical cold requests share one fetch and one parse, each with its own copy', async () => {
    const s = setup([() => page()]);
    const all = await Promise.all(Array.from({ length: 20 }, () => s.source.parsed(request(), v1, s.parse)));
    expect([s.fetcher.calls, s.parses()]).toEqual([1, 1]);
    expect(all[0]!.value).not.toBe(all[1]!.value);
    expect(all[0]!.value).toEqual(all[1]!.value);
  });

  it('the shared fetch sees the latest deadline of the callers waiting on it (its retry policy reads it)', async () => {
    let release!: () => void;
    const joined = new Promise<void>((r) => (release = r));
    const seen: (number | undefined)[] = [];
    const fetcher = {
      async fetchPage(req: { deadlineAt?: number }) {
        seen.push(req.deadlineAt);
        await joined;
        seen.push(req.deadlineAt);
        return page();
      },
    };
    const source = createParsedPageSource({ fetcher });
    const parse = (p: { html: string }) => p.html.length;
    const first = source.parsed({ ...request(), deadlineAt: 1_000 }, v1, parse);
    const second = source.parsed({ ...request(), deadlineAt: 9_000 }, v1, parse);
    await new Promise((r) => setImmediate(r));
    release();
    await Promise.all([first, second]);
    expect(seen).toEqual([1_000, 9_000]);
  });

  it('remembers NOT_FOUND briefly and no other error', async () => {
    const s = setup([failures.notFound, failures.errorPage, failures.errorPage]);
    await expect(s.source.parsed(request(), v1, s.parse)).rejects.toMatchObject({ reason: ErrorReason.NOT_FOUND });
    await expect(s.source.parsed(request(), v1, s.parse)).rejects.toMatchObject({ reason: ErrorReason.NOT_FOUND, message: 'no such product' });
    expect(s.fetcher.calls).toBe(1);
    s.clock.advance(10_001);
    await expect(s.source.parsed(request(), v1, s.parse)).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    await expect(s.source.parsed(request(), v1, s.parse)).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    expect(s.fetcher.calls).toBe(3);
  });

  it('a parse failure is not cached', async () => {
    const s = setup([() => page()]);
    const bad = () => {
      throw failures.errorPage();
    };
    await expect(s.source.parsed(request(), v1, bad)).rejects.toThrow();
    await s.source.parsed(request(), v1, s.parse);
    expect(s.fetcher.calls).toBe(2);
  });

  it('serves a stale record when the marketplace fails, only with serve-stale on, never for not-found', async () => {
    for (const staleSeconds of [0, 3600]) {
      const s = setup([() => page(), failures.blocked, failures.notFound], { staleSeconds });
      await s.source.parsed(request(), v1, s.parse);
      s.clock.advance(61_000);
      const second = s.source.parsed(request(), v1, s.parse);
      if (staleSeconds === 0) await expect(second).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_BLOCKED });
      else expect(await second).toMatchObject({ fromCache: true, stale: true, value: { length: 13 } });
      await expect(s.source.parsed(request(), v1, s.parse)).rejects.toMatchObject({ reason: ErrorReason.NOT_FOUND });
    }
  });

  it('a fresh read fetches past a fresh entry, replaces it, and is never answered stale', async () => {
    const s = setup([() => page(), () => ({ ...page(), html: '<html>fresh page</html>' }), failures.blocked], { staleSeconds: 3600 });
    await s.source.parsed(request(), v1, s.parse);
    const fresh = await s.source.parsed({ ...request(), fresh: true }, v1, s.parse);
    expect(fresh).toMatchObject({ fromCache: false, stale: false, value: { length: 23 } });
    // The page it fetched is the cache's entry now: the next ordinary read is a hit on it.
    expect(await s.source.parsed(request(), v1, s.parse)).toMatchObject({ fromCache: true, value: { length: 23 } });
    // The marketplace fails: an ordinary read could fall back to the stale entry, a fresh one may not.
    await expect(s.source.parsed({ ...request(), fresh: true }, v1, s.parse)).rejects.toMatchObject({ reason: ErrorReason.UPSTREAM_BLOCKED });
    expect(s.fetcher.calls).toBe(3);
  });

  it('works without a cache (single-flight only)', async () => {
    const fetcher = scriptedFetcher([() => page()]);
    const source = createParsedPageSource({ fetcher });
    await Promise.all([source.parsed(request(), v1, () => 1), source.parsed(request(), v1, () => 1)]);
    await source.parsed(request(), v1, () => 1);
    expect(fetcher.calls).toBe(2);
  });
});
