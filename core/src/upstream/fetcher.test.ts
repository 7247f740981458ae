import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReason } from '@retail/contract';
import { createReplayServer, type ReplayOverride, type ReplayServer } from '../../../test/replay/server.js';
import type { CoreError } from '../errors.js';
import { marketplaceByCode } from '../marketplaces/index.js';
import type { PageRequest } from '../operations/types.js';
import { outcomeClassOf } from '../resilience/outcome-class.js';
import { createPageFetcher, retryAfterSeconds, type ClosablePageFetcher } from './fetcher.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/pages/', import.meta.url));
const US = marketplaceByCode('US');
const productHtml = () => readFileSync(`${fixtures}/pages/com/product/dp-B0FXTUS001-modern-espresso.html`);
const DE = marketplaceByCode('DE');

let replay: ReplayServer;
let fetcher: ClosablePageFetcher;
beforeAll(async () => {
  replay = await createReplayServer({
    corpusDirs: [fixtures],
    faults: (req): ReplayOverride | undefined => {
      if (req.path === '/gp/product/B0MOVED001') return { status: 301, body: '', headers: { location: 'https://www.amazon.com/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0OTHERPT1') return { status: 302, body: '', headers: { location: 'https://www.amazon.com:34803/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0USERINF1') return { status: 302, body: '', headers: { location: 'https://user:pw@www.amazon.com/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0PLAINHT1') return { status: 302, body: '', headers: { location: 'http://www.amazon.com/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0BADLOCN1') return { status: 302, body: '', headers: { location: 'https://[not-an-address/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0DEFAULT1') return { status: 302, body: '', headers: { location: 'https://www.amazon.com:443/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0FOREIGN1') return { status: 302, body: '', headers: { location: 'https://evil.example/dp/B0FXTUS001' } };
      if (req.path === '/dp/B0GZIPPED1') return { status: 200, body: gzipSync(productHtml()), headers: { 'content-encoding': 'gzip' } };
      if (req.path === '/dp/B0BROTLI01') return { status: 200, body: brotliCompressSync(productHtml()), headers: { 'content-encoding': 'br' } };
      if (req.path === '/dp/B0BADGZIP1') return { status: 200, body: 'not gzip at all', headers: { 'content-encoding': 'gzip' } };
      if (req.path === '/dp/B0THROTTL1') return { status: 503, body: '<html><body>Service Unavailable</body></html>', headers: { 'retry-after': '30' } };
      if (req.path === '/dp/B0SIGNINR1') return { status: 302, body: '', headers: { location: '/ap/signin?openid.return_to=%2Fdp%2FB0SIGNINR1' } };
      if (req.path === '/dp/B0LOOPING1') return { status: 302, body: '', headers: { location: '/dp/B0LOOPING1' } };
      return undefined;
    },
  });
  fetcher = createPageFetcher({ origin: replay.origin, timeoutMs: 5_000 });
});
afterAll(async () => {
  await fetcher.close();
  await replay.close();
});

const page = (m = US, path: string): PageRequest => ({ marketplace: m, path, kind: 'product', signal: new AbortController().signal });

async function failure(promise: Promise<unknown>): Promise<CoreError> {
  try {
    await promise;
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('expected a failure');
}

describe('createPageFetcher with MARKETPLACE_ORIGIN', () => {
  it('sends the same path and query to the origin with the real host in X-Forwarded-Host', async () => {
    const got = await fetcher.fetchPage({ ...page(US, '/dp/B0FXTUS001'), query: { th: '1' } });
    expect(got.status).toBe(200);
    expect(got.url).toBe('https://www.amazon.com/dp/B0FXTUS001?th=1');
    expect(got.html).toContain('Acme Barista Pro');
    expect(got.fromCache).toBe(false);
    const seen = replay.requests.at(-1)!;
    expect(seen.headers['x-forwarded-host']).toBe('www.amazon.com');
    expect(seen.path).toBe('/dp/B0FXTUS001');
    expect(seen.query.get('th')).toBe('1');
  });

  it('classifies captcha and sign-in pages as UPSTREAM_BLOCKED and unknown products as NOT_FOUND', async () => {
    expect((await failure(fetcher.fetchPage(page(US, '/dp/B0CAPTCHA1')))).reason).toBe(ErrorReason.UPSTREAM_BLOCKED);
    expect((await failure(fetcher.fetchPage(page(US, '/dp/B0SIGNIN01')))).reason).toBe(ErrorReason.UPSTREAM_BLOCKED);
    expect((await failure(fetcher.fetchPage(page(US, '/dp/B0NOTFOUND')))).reason).toBe(ErrorReason.NOT_FOUND);
    // Same path, other marketplace: the replay server's own 404 page.
    expect((await failure(fetcher.fetchPage(page(DE, '/dp/B0FXTUS001')))).reason).toBe(ErrorReason.NOT_FOUND);
  });

  it('follows redirects inside the marketplace and refuses any other host without fetching it', async () => {
    const moved = await fetcher.fetchPage(page(US, '/gp/product/B0MOVED001'));
    expect(moved.url).toBe('https://www.amazon.com/dp/B0FXTUS001');
    const before = replay.requests.length;
    const foreign = await failure(fetcher.fetchPage(page(US, '/dp/B0FOREIGN1')));
    expect(foreign.reason).toBe(ErrorReason.UPSTREAM_ERROR);
    expect(replay.requests.length).toBe(before + 1);
    expect(replay.requests.every((r) => String(r.headers['x-forwarded-host']).endsWith('amazon.com') || String(r.headers['x-forwarded-host']).endsWith('amazon.de'))).toBe(true);
    expect((await failure(fetcher.fetchPage(page(US, '/dp/B0LOOPING1')))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });

  it('refuses a redirect to another port, scheme or userinfo on a marketplace host, or an unparseable one, without fetching it', async () => {
    for (const path of ['/dp/B0OTHERPT1', '/dp/B0USERINF1', '/dp/B0PLAINHT1', '/dp/B0BADLOCN1']) {
      const before = replay.requests.length;
      const error = await failure(fetcher.fetchPage(page(US, path)));
      expect(error.reason, path).toBe(ErrorReason.UPSTREAM_ERROR);
      // Refused, never retried: not a connection failure.
      expect(outcomeClassOf(error), path).toBe('refused');
      expect(replay.requests.length, path).toBe(before + 1);
    }
    expect(replay.requests.some((r) => String(r.headers['x-forwarded-host']).includes(':'))).toBe(false);
    // An explicit :443 is the default port: followed.
    expect((await fetcher.fetchPage(page(US, '/dp/B0DEFAULT1'))).url).toBe('https://www.amazon.com/dp/B0FXTUS001');
  });

  it('refuses a path that would name another origin (`//host:port/...`) without fetching', async () => {
    const before = replay.requests.length;
    for (const path of ['//www.amazon.com:8443/dp/B0FXTUS001', '//evil.example/dp/B0FXTUS001', '//user@www.amazon.com/dp/B0FXTUS001']) {
      expect((await failure(fetcher.fetchPage(page(US, path)))).reason, path).toBe(ErrorReason.INTERNAL);
    }
    expect(replay.requests.length).toBe(before);
  });

  it('asks for compressed pages and reads gzip and brotli bodies; a corrupt body is UPSTREAM_ERROR', async () => {
    for (const path of ['/dp/B0GZIPPED1', '/dp/B0BROTLI01']) {
      expect((await fetcher.fetchPage(page(US, path))).html).toContain('Acme Barista Pro');
    }
    expect(String(replay.requests.at(-1)!.headers['accept-encoding'])).toContain('gzip');
    expect((await failure(fetcher.fetchPage(page(US, '/dp/B0BADGZIP1')))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });

  it("a marketplace 503 is UPSTREAM_ERROR carrying the marketplace's Retry-After", async () => {
    const error = await failure(fetcher.fetchPage(page(US, '/dp/B0THROTTL1')));
    expect(error.reason).toBe(ErrorReason.UPSTREAM_ERROR);
    expect(error.retryAfterSeconds).toBe(30);
  });

  it('a redirect to the sign-in page is UPSTREAM_BLOCKED without following it', async () => {
    const before = replay.requests.length;
    expect((await failure(fetcher.fetchPage(page(US, '/dp/B0SIGNINR1')))).reason).toBe(ErrorReason.UPSTREAM_BLOCKED);
    expect(replay.requests.length).toBe(before + 1);
  });

  it('sends the reviews session cookie with review pages only', async () => {
    const withSession = createPageFetcher({ origin: replay.origin, timeoutMs: 5_000, reviewsSessionCookie: 'session-id=abc' });
    await withSession.fetchPage(page(US, '/dp/B0FXTUS001'));
    expect(replay.requests.at(-1)!.headers.cookie).toBeUndefined();
    await failure(withSession.fetchPage({ ...page(US, '/product-reviews/B0FXTUS001'), kind: 'reviews' }));
    expect(replay.requests.at(-1)!.headers.cookie).toBe('session-id=abc');
    await withSession.close();
  });

  it('rejects paths that are not absolute', async () => {
    await expect(fetcher.fetchPage(page(US, 'https://evil.example/x'))).rejects.toThrow();
  });
});

describe('retryAfterSeconds', () => {
  it('reads deltas and HTTP dates, at least 1 and at most an hour', () => {
    expect(retryAfterSeconds('30')).toBe(30);
    expect(retryAfterSeconds('0')).toBe(1);
    expect(retryAfterSeconds('999999')).toBe(3600);
    expect(retryAfterSeconds(new Date(1_000_000 + 20_000).toUTCString(), 1_000_000)).toBe(20);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});

describe('createPageFetcher failures', () => {
  let silent: Server;
  let silentOrigin: string;
  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    silentOrigin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('a marketplace that does not answer in time is UPSTREAM_TIMEOUT', async () => {
    const slow = createPageFetcher({ origin: silentOrigin, timeoutMs: 150 });
    expect((await failure(slow.fetchPage(page(US, '/dp/B0FXTUS001')))).reason).toBe(ErrorReason.UPSTREAM_TIMEOUT);
    await slow.close();
  });

  it("the call's own deadline aborts the fetch", async () => {
    const slow = createPageFetcher({ origin: silentOrigin, timeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = failure(slow.fetchPage({ ...page(US, '/dp/B0FXTUS001'), signal: controller.signal }));
    controller.abort();
    expect((await pending).reason).toBe(ErrorReason.UPSTREAM_TIMEOUT);
    await slow.close();
  });

  it('a connection failure is UPSTREAM_ERROR', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = createPageFetcher({ origin: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
    expect((await failure(refused.fetchPage(page(US, '/dp/B0FXTUS001')))).reason).toBe(ErrorReason.UPSTREAM_ERROR);
    await refused.close();
  });
});
