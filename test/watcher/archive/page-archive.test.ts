/**
 * The page archive end to end on real parts (docs/page-archive.md): the core's page source and
 * upstream client against a local marketplace, the hand-off on a real redis-server, the watcher's
 * recorder writing to a real PostgreSQL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ARCHIVE_STREAM, type ArchivedPage } from '@retail/contract/page-archive-handoff';
import { withArchiveHint } from '../../../core/src/archive/archive-hint.js';
import { decompressPage } from '../../../core/src/archive/compress-page.js';
import { createPageArchiveTap } from '../../../core/src/archive/page-archive-tap.js';
import { createRedisPageArchiveOutbox } from '../../../core/src/archive/redis-outbox.js';
import { createParsedPageSource } from '../../../core/src/cache/parsed-pages.js';
import { marketplaceByCode } from '../../../core/src/marketplaces/index.js';
import { createPageFetcher } from '../../../core/src/upstream/index.js';
import { createPageArchiveRecorder } from '../../../watcher/src/archive/page-archive-recorder.js';
import { createRedisPageArchiveInbox } from '../../../watcher/src/archive/redis-inbox.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const SESSION = 'session-id=SECRET-SESSION-4711';
const REVIEWS_SESSION = 'at-main=SECRET-REVIEWS-0815';
const PRODUCT_HTML = '<html><div id="dp"><span id="productTitle">Kettle</span><span class="a-price">$19.99</span></div></html>';
const CAPTCHA_HTML = '<html><title>Robot Check</title><form action="/errors/validateCaptcha"></form></html>';
const US = marketplaceByCode('US');
const record = { product: { title: 'Kettle', price: { value: 19.99, currency: 'USD' }, isInStock: true } };
const productRequest = (asin: string) => ({ marketplace: US, path: `/dp/${asin}`, kind: 'product' as const, signal: AbortSignal.timeout(5_000) });

describe.skipIf(missing !== null)('the page archive', () => {
  let redis: RedisServer;
  let database: TestDatabase;
  let store: WatchStore;
  let marketplace: Server;
  let origin: string;
  const cookiesSeen: string[] = [];
  let now = new Date('2026-11-28T10:00:00Z');

  beforeAll(async () => {
    redis = await startRedis();
    database = await createTestDatabase('page_archive_test');
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }), { clock: () => now, pageArchiveDays: 30 });
    marketplace = createServer((req, res) => {
      cookiesSeen.push(String(req.headers.cookie));
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('set-cookie', 'session-token=SECRET-SET-COOKIE; Path=/');
      res.end(req.url?.includes('BLOCKED') ? CAPTCHA_HTML : PRODUCT_HTML);
    });
    await new Promise<void>((resolve) => marketplace.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(marketplace.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
    await redis?.stop();
    await new Promise((resolve) => marketplace?.close(resolve));
  });

  /** The core's side: the real upstream client (sending cookies) and page source, archiving to the stream. */
  function core(sampleRate = 0, maxEntries = 100) {
    const outbox = createRedisPageArchiveOutbox({ url: redis.url, maxEntries });
    const fetcher = createPageFetcher({ origin, timeoutMs: 5_000, cookies: SESSION, reviewsSessionCookie: REVIEWS_SESSION });
    const source = createParsedPageSource({ fetcher, archive: createPageArchiveTap({ outbox, sampleRate }) });
    return { source, outbox, close: async () => Promise.all([outbox.close(), fetcher.close()]) };
  }
  const streamLength = async () => {
    const client = new Redis(redis.url);
    try {
      return await client.xlen(PAGE_ARCHIVE_STREAM);
    } finally {
      client.disconnect();
    }
  };
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const recorder = async (consumer = 'watcher-a', claimIdleMs = 60_000) =>
    createPageArchiveRecorder({ inbox: await createRedisPageArchiveInbox({ url: redis.url, consumer, claimIdleMs }), pages: store.pages, log: () => undefined, blockMs: 500 });

  it('a watch refresh archives its page with what the parser read, and never a cookie or header', async () => {
    const c = core();
    const watcher = await recorder();
    try {
      await withArchiveHint('watch-refresh', () => c.source.parsed(productRequest('B0ARCHIVE1'), { id: 'product', version: 3 }, () => record));
      await until(async () => (await streamLength()) > 0);
      expect(await watcher.drainOnce(false)).toEqual({ read: 1, recorded: 1 });
    } finally {
      await watcher.stop();
      await c.close();
    }
    const row = await store.pages.find({ domain: 'US', kind: 'product', identifier: 'B0ARCHIVE1', at: new Date() });
    expect(row).toMatchObject({ url: 'https://www.amazon.com/dp/B0ARCHIVE1', status: 200, parser: 'product@3', reason: 'watch-refresh', contentType: 'text/html; charset=utf-8', parsed: record });
    expect(await decompressPage(row!.body, row!.encoding)).toBe(PRODUCT_HTML);
    // The marketplace got the session cookies; the archive holds none of them, nor any header.
    expect(cookiesSeen.at(-1)).toContain('SECRET-SESSION-4711');
    const [raw] = await store.db.query<Record<string, unknown>>(`SELECT * FROM archived_pages WHERE identifier = 'B0ARCHIVE1'`);
    const stored = JSON.stringify({ ...raw, body: await decompressPage(raw!.body as Uint8Array, 'br') });
    for (const secret of ['SECRET-SESSION', 'SECRET-REVIEWS', 'SECRET-SET-COOKIE', 'user-agent', 'accept-language', 'cookie']) expect(stored.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('a blocked page is archived as blocked while the call fails', async () => {
    const c = core();
    const watcher = await recorder();
    try {
      await expect(c.source.parsed(productRequest('B0BLOCKED1'), { id: 'product', version: 3 }, () => record)).rejects.toThrow(/blocked/);
      await until(async () => (await streamLength()) > 0);
      expect((await watcher.drainOnce(false)).recorded).toBe(1);
    } finally {
      await watcher.stop();
      await c.close();
    }
    const row = await store.pages.find({ domain: 'US', kind: 'product', identifier: 'B0BLOCKED1', at: new Date() });
    expect(row).toMatchObject({ reason: 'blocked', parsed: null });
    expect(await decompressPage(row!.body, row!.encoding)).toBe(CAPTCHA_HTML);
  });

  const page = (i: number): ArchivedPage => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, url: `https://www.amazon.com/dp/B0RESTART${i}`, domain: 'US', kind: 'product',
    identifier: `B0RESTART${i}`, status: 200, fetchedAt: now, parser: 'product@3', contentType: 'text/html', encoding: 'gzip',
    body: new Uint8Array([1, 2, 3]), reason: 'sample', missing: [],
  });

  it('a watcher that stops between recording and acknowledging records each page once after its restart', async () => {
    const c = core();
    for (let i = 0; i < 5; i++) await c.outbox.add(page(i));
    await c.close();
    // The first watcher records the pages, then dies before acknowledging them.
    const first = await createRedisPageArchiveInbox({ url: redis.url, consumer: 'watcher-b' });
    const read = await first.read({ pending: false, count: 10, blockMs: 500 });
    for (const entry of read) await store.pages.record(entry.page!);
    await first.close();
    expect(read).toHaveLength(5);
    // Its replacement, under another pod name, claims what the dead one held and records nothing twice.
    const second = await recorder('watcher-c', 0);
    try {
      expect(await second.drainOnce(true)).toEqual({ read: 5, recorded: 0 });
      expect(await second.drainOnce(true)).toEqual({ read: 0, recorded: 0 });
    } finally {
      await second.stop();
    }
    const [{ n }] = (await store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM archived_pages WHERE identifier LIKE 'B0RESTART%'`)) as [{ n: number }];
    expect(n).toBe(5);
    expect(await streamLength()).toBe(0);
  });

  it('with no watcher reading, the core is never held: the stream keeps its newest pages and reports each drop', async () => {
    const c = core(0, 5);
    try {
      const results = [];
      for (let i = 10; i < 30; i++) results.push(await c.outbox.add(page(i)));
      expect(results.filter((r) => r.dropped)).toHaveLength(15);
      expect(await streamLength()).toBe(5);
      // Even a frozen Redis holds no call: the hand-off runs after the call's answer.
      redis.freeze();
      const started = performance.now();
      await withArchiveHint('watch-refresh', () => c.source.parsed(productRequest('B0FROZEN01'), { id: 'product', version: 3 }, () => record));
      expect(performance.now() - started).toBeLessThan(900);
    } finally {
      redis.thaw();
      await c.close();
    }
  });

  it('retention drops the months that ended more than PAGE_ARCHIVE_DAYS ago', async () => {
    now = new Date('2026-01-15T12:00:00Z');
    expect(await store.pages.record({ ...page(99), identifier: 'B0OLDPAGE1', fetchedAt: now })).toBe(true);
    now = new Date('2026-03-05T00:00:00Z');
    const result = await store.maintenance.run();
    expect(result.dropped).toContain('archived_pages_2026_01');
    expect(result.dropped).not.toContain('archived_pages_2026_02');
    expect(await store.pages.find({ domain: 'US', kind: 'product', identifier: 'B0OLDPAGE1', at: now })).toBeUndefined();
  });
});
