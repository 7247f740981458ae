/**
 * retail.v1.ArchivedPageService on a real watcher gRPC server over a real PostgreSQL: the page of an
 * identifier at a time with what the parser read and its body, the list of an identifier's pages,
 * and the refusals (bad marketplace, kind, limit, window; no page; no service token). Called with a
 * client nobody here wrote (@connectrpc/connect) and through the gateways' backend client, which
 * routes the service to the watcher. Skips, saying so, without PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { ArchivedPageService, ErrorReason } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { createWatchService, createWatcherGrpcServer, type WatcherGrpcServer } from '../../../watcher/src/service/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { generateSecretKey, secretKey } from '../../../watcher/src/webhooks/secret-box.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { failureOf, SERVICE_TOKEN } from '../service/fixtures.js';

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

const ASIN = 'B0ARCHSVC1';
const headers = { authorization: `Bearer ${SERVICE_TOKEN}` };

describe.skipIf(missing !== null)('the watcher serves the page archive to internal callers', () => {
  let database: TestDatabase;
  let store: WatchStore;
  let jobs: JobSystem;
  let server: WatcherGrpcServer;
  let port: number;
  const client = () => createClient(ArchivedPageService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));

  const page = (at: string, price: number | null) => ({
    id: randomUUID(), url: `https://www.amazon.com/dp/${ASIN}`, domain: 'US', kind: 'product', identifier: ASIN, status: 200,
    fetchedAt: new Date(at), parser: 'product-page@3', contentType: 'text/html; charset=utf-8', encoding: 'br' as const,
    body: brotliCompressSync(`<html><span class="price">${price}</span></html>`),
    parsed: price === null ? undefined : JSON.stringify({ product: { asin: ASIN, price: { value: price, currency: 'USD' } } }),
    reason: price === null ? ('unparseable' as const) : ('watch-refresh' as const), missing: price === null ? ['price'] : [],
  });

  beforeAll(async () => {
    database = await createTestDatabase('watcher_archive_service');
    store = await openWatchStore(createPostgresDatabase({ connectionString: database.url }));
    await store.pages.record(page('2026-11-28T09:00:00Z', 10));
    await store.pages.record(page('2026-11-28T10:00:00Z', null));
    await store.pages.record(page('2026-11-28T11:00:00Z', 8));
    jobs = createMemoryJobSystem();
    const service = createWatchService({ store, jobs, webhooks: { policy: { allowPrivateTargets: false }, keyring: { current: secretKey(generateSecretKey()), retired: [] } } });
    server = createWatcherGrpcServer({ host: '127.0.0.1', port: 0, serviceToken: SERVICE_TOKEN, service, archive: store });
    ({ port } = await server.start());
  }, 60_000);
  afterAll(async () => {
    await server?.stop({ graceMs: 1_000 });
    await jobs?.close();
    await store?.close();
    await database?.drop();
  });

  it('answers the page fetched last at or before the time, with what the parser read and the page as archived', async () => {
    const answer = await client().getArchivedPage({ marketplace: 'us', kind: 'product', identifier: ASIN, at: timestampFromDate(new Date('2026-11-28T09:30:00Z')) }, { headers });
    expect(timestampDate(answer.page!.fetchedAt!).toISOString()).toBe('2026-11-28T09:00:00.000Z');
    expect(answer.page).toMatchObject({ marketplace: 'US', kind: 'product', identifier: ASIN, status: 200, parser: 'product-page@3', reparsedWith: '', reason: 'watch-refresh', missingFields: [] });
    expect(JSON.parse(answer.parsedJson)).toEqual({ product: { asin: ASIN, price: { value: 10, currency: 'USD' } } });
    expect(answer.encoding).toBe('br');
    expect(brotliDecompressSync(answer.body).toString()).toBe('<html><span class="price">10</span></html>');
    expect(answer.page!.storedBytes).toBe(BigInt(answer.body.byteLength));
  });

  it('answers the latest page without a time, and a page the parser could not read with no record and its missing fields', async () => {
    const latest = await client().getArchivedPage({ marketplace: 'US', kind: 'product', identifier: ASIN }, { headers });
    expect(timestampDate(latest.page!.fetchedAt!).toISOString()).toBe('2026-11-28T11:00:00.000Z');
    const unread = await client().getArchivedPage({ marketplace: 'US', kind: 'product', identifier: ASIN, at: timestampFromDate(new Date('2026-11-28T10:00:00Z')) }, { headers });
    expect(unread.parsedJson).toBe('');
    expect(unread.page).toMatchObject({ reason: 'unparseable', missingFields: ['price'] });
  });

  it('lists an identifier\'s pages newest first without bodies, within the window and the limit', async () => {
    const all = await client().listArchivedPages({ marketplace: 'US', kind: 'product', identifier: ASIN }, { headers });
    expect(all.pages.map((p) => timestampDate(p.fetchedAt!).toISOString())).toEqual(['2026-11-28T11:00:00.000Z', '2026-11-28T10:00:00.000Z', '2026-11-28T09:00:00.000Z']);
    expect(all.pages.every((p) => p.storedBytes > 0n)).toBe(true);
    const window = await client().listArchivedPages({
      marketplace: 'US', kind: 'product', identifier: ASIN, limit: 1,
      from: timestampFromDate(new Date('2026-11-28T09:30:00Z')), to: timestampFromDate(new Date('2026-11-28T10:30:00Z')),
    }, { headers });
    expect(window.pages.map((p) => p.reason)).toEqual(['unparseable']);
  });

  it('refuses a bad marketplace, kind, identifier, limit or window with INVALID_ARGUMENT naming the field, and an unknown identifier with NOT_FOUND', async () => {
    const cases: Array<[Parameters<ReturnType<typeof client>['listArchivedPages']>[0], string]> = [
      [{ marketplace: 'XX', kind: 'product', identifier: ASIN }, 'marketplace'],
      [{ marketplace: 'UNSPECIFIED', kind: 'product', identifier: ASIN }, 'marketplace'],
      [{ marketplace: '1', kind: 'product', identifier: ASIN }, 'marketplace'],
      [{ marketplace: 'US', kind: 'Product;DROP', identifier: ASIN }, 'kind'],
      [{ marketplace: 'US', kind: 'widgets', identifier: ASIN }, 'kind'],
      [{ marketplace: 'US', kind: 'product', identifier: '  ' }, 'identifier'],
      [{ marketplace: 'US', kind: 'product', identifier: ASIN, limit: 201 }, 'limit'],
      [{ marketplace: 'US', kind: 'product', identifier: ASIN, from: timestampFromDate(new Date('2026-11-29T00:00:00Z')), to: timestampFromDate(new Date('2026-11-28T00:00:00Z')) }, 'from'],
    ];
    for (const [request, field] of cases) {
      const failure = await failureOf(client().listArchivedPages(request, { headers }));
      expect(failure.code, field).toBe(Code.InvalidArgument);
      expect(failure.detail).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath: [field] });
    }
    const none = await failureOf(client().getArchivedPage({ marketplace: 'US', kind: 'product', identifier: 'B0NOTHERE1' }, { headers }));
    expect(none.code).toBe(Code.NotFound);
    expect(none.detail).toMatchObject({ reason: ErrorReason.NOT_FOUND, fieldPath: ['identifier'] });
  });

  it('refuses a caller without the service token', async () => {
    const failure = await failureOf(client().listArchivedPages({ marketplace: 'US', kind: 'product', identifier: ASIN }, { headers: { authorization: 'Bearer wrong' } }));
    expect(failure.code).toBe(Code.Unauthenticated);
  });

  it('is reached through the gateways\' backend client at the watcher\'s address', async () => {
    // The core address is never dialled: the archive's service goes to the watcher.
    const backends = createCoreClient({ address: '127.0.0.1:1', watcherAddress: `127.0.0.1:${port}`, serviceToken: SERVICE_TOKEN });
    const answer = await backends.unaryCall(ArchivedPageService.method.listArchivedPages, { marketplace: 'US', kind: 'product', identifier: ASIN, limit: 2 }, { requestId: 'archive-test' });
    expect(answer.pages).toHaveLength(2);
  });
});
