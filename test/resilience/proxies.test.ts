import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceByCode } from '@retail/core/marketplaces/index';
import type { PageRequest } from '@retail/core/pages/types';
import { createResilientPageFetcher } from '@retail/core/resilience/compose';
import { createProxyRotation } from '@retail/core/resilience/proxies';
import { createPageFetcher } from '@retail/core/upstream/index';
import { freePort } from '../harness/redis.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';
import { createConnectProxy, type TestProxy } from './connect-proxy.js';

/* UPSTREAM_PROXIES: the real upstream client through real CONNECT proxies, one of them dead. */
const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const US = marketplaceByCode('US');
let replay: ReplayServer;
let proxy: TestProxy;

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [fixtures] });
  proxy = await createConnectProxy();
});
afterAll(async () => {
  await proxy.close();
  await replay.close();
});

const get = (): PageRequest => ({ marketplace: US, path: '/dp/B0FXTUS001', kind: 'product', signal: new AbortController().signal });

describe('proxy rotation with the real upstream client', () => {
  it('fetches through the proxy (a CONNECT per connection to the marketplace origin)', async () => {
    const proxies = createProxyRotation([proxy.url]);
    const raw = createPageFetcher({ origin: replay.origin, timeoutMs: 2_000, proxies });
    const page = await raw.fetchPage(get());
    expect(page.html).toContain('Acme Barista Pro');
    expect(proxy.connects).toContain(new URL(replay.origin).host);
    await raw.close();
    await proxies.close();
  });

  it('a dead proxy fails the attempt, the retry goes through the next one, and the dead one rests', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const proxies = createProxyRotation([dead, proxy.url], { failureThreshold: 1, cooldownMs: 60_000 });
    const raw = createPageFetcher({ origin: replay.origin, timeoutMs: 2_000, proxies });
    const fetcher = createResilientPageFetcher(raw, { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 }, breaker: { failureThreshold: 0, openMs: 1 }, limits: {} });
    const before = proxy.connects.length;
    expect((await fetcher.fetchPage(get())).status).toBe(200);
    expect(proxy.connects.length).toBeGreaterThan(before);
    expect(proxies.health().find((p) => p.url === dead)?.healthy).toBe(false);
    await raw.close();
    await proxies.close();
  });
});
