import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReason } from '@retail/contract';
import { marketplaceByCode } from '@retail/core/marketplaces/index';
import type { PageRequest } from '@retail/core/pages/types';
import { createProxyRotation } from '@retail/core/resilience/proxies';
import { createPageFetcher } from '@retail/core/upstream/index';
import { loadAppConfig } from '../../app/src/config.js';
import { type RunningStack, startStack } from '../../app/src/stack.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';
import { createConnectProxy, type TestProxy } from './connect-proxy.js';
import { createFaultOrigin, type FaultOrigin } from './fault-origin.js';

/*
 * A marketplace redirect to another port of a marketplace host (issue 12, defect 1) is refused and
 * that port never sees a connection. The fetch connects to the URL's origin, port included, so the
 * test gives the port something real to reach: a loopback TCP listener, with the marketplace hosts
 * mapped to loopback by a CONNECT proxy (UPSTREAM_PROXIES) and a test-only certificate for
 * www.amazon.com (test/fixtures/tls). Then the same redirect through `npm start`'s stack: 502
 * UPSTREAM_ERROR, nothing charged.
 */
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const CERT = readFileSync(`${fixtures}tls/marketplace-test.crt`);
const KEY = readFileSync(`${fixtures}tls/marketplace-test.key`);
const PRODUCT_HTML = readFileSync(`${fixtures}pages/pages/com/product/dp-B0FXTUS001-modern-espresso.html`);
const US = marketplaceByCode('US');

/** Where every connection attempt to the other port lands (must stay empty). */
let otherPort: TcpServer;
let otherPortNumber: number;
let otherPortConnections = 0;
/** The "marketplace": HTTPS as www.amazon.com, on loopback behind the proxy. */
let marketplace: HttpsServer;
let proxy: TestProxy;

const listening = async <S extends TcpServer>(server: S): Promise<number> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  otherPort = createTcpServer((socket) => {
    otherPortConnections++;
    socket.destroy();
  });
  otherPortNumber = await listening(otherPort);
  marketplace = createHttpsServer({ cert: CERT, key: KEY }, (req, res) => {
    const path = req.url ?? '/';
    const redirect = (location: string) => res.writeHead(302, { location }).end();
    if (path === '/dp/B0FXTUS001?c=port') return redirect(`https://www.amazon.com:${otherPortNumber}/dp/B0FXTUS001`);
    if (path === '/dp/B0FXTUS001?c=default') return redirect('https://www.amazon.com:443/dp/B0FXTUS001?c=landed');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT_HTML);
  });
  const marketplacePort = await listening(marketplace);
  // Marketplace hosts are loopback here: :443 is the HTTPS stand-in, any other port that port on loopback.
  proxy = await createConnectProxy((host, port) => {
    if (host !== 'www.amazon.com' && host !== 'amazon.com') return { host, port };
    return { host: '127.0.0.1', port: port === 443 ? marketplacePort : port };
  });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => marketplace.close(() => r()));
  await new Promise<void>((r) => otherPort.close(() => r()));
});

const request = (c: string): PageRequest => ({ marketplace: US, path: '/dp/B0FXTUS001', query: { c }, kind: 'product', signal: new AbortController().signal });

function directFetcher() {
  const proxies = createProxyRotation([proxy.url], {}, (url) => new ProxyAgent({ uri: url, requestTls: { ca: CERT } }));
  const fetcher = createPageFetcher({ timeoutMs: 3_000, proxies });
  return { fetcher, close: async () => (await fetcher.close(), await proxies.close()) };
}

describe('a redirect to another port of a marketplace host, with real connections', () => {
  it('the other port is reachable through this setup (so "no connection" below means refused)', async () => {
    const before = otherPortConnections;
    const tunnel = connect(Number(new URL(proxy.url).port), '127.0.0.1');
    tunnel.write(`CONNECT www.amazon.com:${otherPortNumber} HTTP/1.1\r\nhost: www.amazon.com:${otherPortNumber}\r\n\r\n`);
    await new Promise((r) => tunnel.once('data', r));
    await expect.poll(() => otherPortConnections).toBe(before + 1);
    tunnel.destroy();
  });

  it('follows a redirect to the default port (:443 written out) over real HTTPS', async () => {
    const { fetcher, close } = directFetcher();
    const page = await fetcher.fetchPage(request('default'));
    expect(page.url).toBe('https://www.amazon.com/dp/B0FXTUS001?c=landed');
    expect(page.html).toContain('Acme Barista Pro');
    await close();
  });

  it('refuses the redirect as UPSTREAM_ERROR; the other port sees no connection and no CONNECT names it', async () => {
    const { fetcher, close } = directFetcher();
    const before = otherPortConnections;
    const connectsBefore = proxy.connects.length;
    const error = await fetcher.fetchPage(request('port')).then(
      () => expect.unreachable('the redirect was followed'),
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR });
    await close();
    expect(otherPortConnections).toBe(before);
    expect(proxy.connects.slice(connectsBefore)).toEqual(['www.amazon.com:443']);
  });
});

describe('the same redirect through npm start (MARKETPLACE_ORIGIN)', () => {
  let replay: ReplayServer;
  let faults: FaultOrigin;
  let stack: RunningStack;
  let dataDir: string | undefined;
  beforeAll(async () => {
    replay = await createReplayServer({ corpusDirs: [`${fixtures}pages`] });
    faults = await createFaultOrigin(replay.origin);
    // A data directory of its own: the development account is kept across starts on one (issue 24),
    // and its 10 units must be this run's.
    dataDir = mkdtempSync(join(tmpdir(), 'redirect-port-'));
    const env = { PORT: '0', GRPC_PORT: '0', MARKETPLACE_ORIGIN: faults.origin, LOG_LEVEL: 'silent', DEV_UNITS: '10', WATCHER_DATA_DIR: dataDir };
    stack = await startStack({ ...loadAppConfig(env), marketplaceOrigin: faults.origin }, env);
  });
  afterAll(async () => {
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await faults?.close();
    await replay?.close();
  });

  it('answers 502 UPSTREAM_ERROR with the envelope, charges nothing, and never asks for the other port', async () => {
    const key = { 'API-KEY': stack.devKey };
    const balance = async () => ((await (await fetch(`${stack.url}/api/account`, { headers: key })).json()) as { data: { balance: number } }).data.balance;
    faults.inject('/dp/B0FXTUS001', { kind: 'redirect', location: `https://www.amazon.com:${otherPortNumber}/dp/B0FXTUS001` });
    const before = await balance();
    const connectionsBefore = otherPortConnections;
    const res = await fetch(`${stack.url}/api/retail/product?asin=B0FXTUS001`, { headers: key });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ success: false, errors: [{ code: 502 }] });
    expect(res.headers.get('x-units-charged')).toBe('0');
    expect(await balance()).toBe(before);
    // One request (the redirecting one, not retried); none for the redirect's host:port.
    expect(faults.count('/dp/B0FXTUS001')).toBe(1);
    expect(faults.seen.every((s) => s.host === 'www.amazon.com')).toBe(true);
    expect(otherPortConnections).toBe(connectionsBefore);
  });
});
