/**
 * The operator view's API over real HTTP with real parts (archive-fixture.ts): a real PostgreSQL
 * holding the watcher's archive and the console's users, the watcher's real gRPC server serving
 * ArchivedPageService, the console calling it through the gateways' backend client. The role is
 * granted and revoked as the admin CLI does it, and read again on every request.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientArchiveApi } from '@retail/console';
import { createCoreClient } from '@retail/gateway-shared/core-client';
import { postgresMissing } from '../harness/postgres.js';
import { ASIN, FETCHES, htmlOf, SERVICE_TOKEN, startArchiveFixture, type ArchiveFixture } from './archive-fixture.js';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

const PAGE = `marketplace=US&kind=product&identifier=${ASIN}`;

describe.skipIf(missing !== null)('the console\'s operator API', () => {
  let fixture: ArchiveFixture;
  let operator: ConsoleClient;
  let operatorEmail: string;
  let customer: ConsoleClient;

  beforeAll(async () => {
    fixture = await startArchiveFixture('console_operator_api');
    operatorEmail = uniqueEmail('operator');
    operator = new ConsoleClient(fixture.console.base);
    expect((await operator.signUp(operatorEmail)).status).toBe(201);
    await fixture.setOperator(operatorEmail, true);
    customer = new ConsoleClient(fixture.console.base);
    expect((await customer.signUp(uniqueEmail('customer'))).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  it('refuses a signed-in customer with 403 in the error envelope, and a visitor with 401', async () => {
    for (const path of ['operator/options', `operator/page?${PAGE}`, `operator/pages?${PAGE}`, `operator/page/raw?${PAGE}`]) {
      const refused = await customer.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toMatchObject({ success: false, errors: [{ code: 403 }] });
      expect(refused.body.errors[0].message).toMatch(/operator/);
    }
    expect((await customer.get('session')).body.data.user.operator).toBe(false);
    const visitor = new ConsoleClient(fixture.console.base);
    await visitor.get('session');
    expect((await visitor.get(`operator/page?${PAGE}`)).status).toBe(401);
  });

  it('tells the operator\'s page the role and the choices: the declared marketplaces and the archive\'s kinds', async () => {
    const session = (await operator.get('session')).body.data;
    expect(session.user.operator).toBe(true);
    expect(session.archive).toBe(true);
    const { data } = (await operator.get('operator/options')).body;
    expect(data.marketplaces[0]).toBe('US');
    expect(data.marketplaces).toHaveLength(13);
    expect(data.kinds).toContain('product');
    expect(data.kinds).toContain('bestseller-categories');
  });

  it('finds the page fetched last at or before a time, with its facts and what the parser read, without the body', async () => {
    const found = await operator.get(`operator/page?${PAGE}&at=2026-11-28T09:30:00Z`);
    expect(found.status).toBe(200);
    const { page, parsed, contentType, htmlBytes } = found.body.data;
    expect(page).toMatchObject({
      fetchedAt: FETCHES[0], marketplace: 'US', kind: 'product', identifier: ASIN, url: `https://www.amazon.com/dp/${ASIN}`, status: 200,
      parser: 'product-page@3', reparsedWith: null, reason: 'watch-refresh', missingFields: [],
    });
    expect(page.storedBytes).toBeGreaterThan(0);
    expect(parsed).toEqual({ asin: ASIN, title: '<b>Espresso</b> machine', price: { value: 10, currency: 'USD' } });
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(htmlBytes).toBe(Buffer.byteLength(htmlOf(10)));
    expect(JSON.stringify(found.body)).not.toContain('<script>');

    // No time: now, so the newest. Lower-case marketplace and kind are read as the codes.
    const latest = await operator.get(`operator/page?marketplace=us&kind=PRODUCT&identifier=${ASIN}`);
    expect(latest.body.data.page.fetchedAt).toBe(FETCHES[2]);
    // Before the first fetch: the first after it. An unreadable page: no record, its missing fields.
    expect((await operator.get(`operator/page?${PAGE}&at=2026-11-01`)).body.data.page.fetchedAt).toBe(FETCHES[0]);
    const unread = (await operator.get(`operator/page?${PAGE}&at=2026-11-28T10:00:00Z`)).body.data;
    expect(unread).toMatchObject({ parsed: null, page: { reason: 'unparseable', missingFields: ['title', 'price'] } });
  });

  it('lists the identifier\'s pages newest first, in a window and a limit', async () => {
    const all = (await operator.get(`operator/pages?${PAGE}`)).body.data.pages;
    expect(all.map((p: { fetchedAt: string }) => p.fetchedAt)).toEqual([...FETCHES].reverse());
    expect(Object.keys(all[0]).sort()).toEqual(['fetchedAt', 'id', 'identifier', 'kind', 'marketplace', 'missingFields', 'parser', 'reason', 'reparsedWith', 'status', 'storedBytes', 'url']);
    const window = (await operator.get(`operator/pages?${PAGE}&from=2026-11-28T09:30:00Z&to=2026-11-28T11:00:00Z&limit=1`)).body.data.pages;
    expect(window.map((p: { fetchedAt: string }) => p.fetchedAt)).toEqual([FETCHES[2]]);
    expect((await operator.get(`operator/pages?marketplace=US&kind=product&identifier=B0NOTHERE1`)).body.data.pages).toEqual([]);
  });

  it('downloads the raw page decompressed (gzip and brotli) as sandboxed plain text, never as HTML', async () => {
    const pages = (await operator.get(`operator/pages?${PAGE}`)).body.data.pages as Array<{ id: string; fetchedAt: string }>;
    for (const [page, price] of [[pages[2]!, 10], [pages[0]!, 8]] as const) {
      const response = await fetch(`${fixture.console.base}/api/operator/page/raw?${PAGE}&at=${page.fetchedAt}&id=${page.id}`, { headers: { cookie: operator.cookie! } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="US-product-${ASIN}-${page.fetchedAt.replace(/:/g, '_')}.html"`);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toBe(htmlOf(price));
    }
    // A page id that is not the page at that time: not that page.
    const other = await operator.get(`operator/page/raw?${PAGE}&at=${pages[0]!.fetchedAt}&id=${pages[2]!.id}`);
    expect(other.status).toBe(404);
  });

  it('answers 400 with every field error for an unknown marketplace or kind, a missing identifier or a bad time', async () => {
    const refused = await operator.get('operator/page?marketplace=XX&kind=pdf&at=yesterday&colour=red');
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
    expect(refused.body.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['at', 'colour', 'identifier', 'kind', 'marketplace']);
    expect(refused.body.errors.every((e: { code: number }) => e.code === 400)).toBe(true);
    // A time without its offset would be read in the server's zone: refused, not guessed.
    expect((await operator.get(`operator/page?${PAGE}&at=2026-11-28T10:00`)).body.errors[0].path).toEqual(['at']);
    expect((await operator.get(`operator/page?${PAGE}&at=2026-13-45T10:00:00Z`)).status).toBe(400);
    const list = await operator.get(`operator/pages?${PAGE}&from=2026-11-29T00:00:00Z&to=2026-11-28T00:00:00Z&limit=500`);
    expect(list.body.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['from', 'limit']);
    expect((await operator.get(`operator/page?${PAGE}&id=not-a-uuid`)).body.errors[0].path).toEqual(['id']);
    const twice = await operator.get(`operator/page?${PAGE}&marketplace=DE`);
    expect(twice.body.errors).toEqual([{ code: 400, message: 'Give marketplace once, as text', path: ['marketplace'] }]);
  });

  it('never answers a 5xx, whatever the query', async () => {
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('US', 'product', ASIN, '2026-11-28T10:00:00Z', '0', '201', '', '%', '\u0000'));
    const query = fc.dictionary(fc.constantFrom('marketplace', 'kind', 'identifier', 'at', 'from', 'to', 'limit', 'id', 'other'), value, { maxKeys: 6 });
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom('operator/page', 'operator/pages', 'operator/page/raw'), async (params, path) => {
        // fetch itself: a raw page found is text, not JSON.
        const answer = await fetch(`${fixture.console.base}/api/${path}?${new URLSearchParams(params)}`, { headers: { cookie: operator.cookie! } });
        const text = await answer.text();
        expect([200, 400, 404], JSON.stringify([path, params, text.slice(0, 200)])).toContain(answer.status);
      }),
      { numRuns: 80 },
    );
  });

  it('answers 404 in the envelope when the archive has no page of the identifier', async () => {
    const none = await operator.get('operator/page?marketplace=DE&kind=product&identifier=B0NOTHERE1');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ success: false, errors: [{ code: 404 }] });
    expect((await operator.get('operator/page/raw?marketplace=DE&kind=product&identifier=B0NOTHERE1')).status).toBe(404);
  });

  it('charges nothing: the operator\'s account keeps its units', async () => {
    const before = (await operator.get('account')).body.data.balance;
    await operator.get(`operator/page?${PAGE}`);
    await operator.get(`operator/pages?${PAGE}`);
    expect((await operator.get('account')).body.data.balance).toBe(before);
  });

  it('takes a revocation at once: the same session is refused at its next request, and a new grant lets it in again', async () => {
    expect((await operator.get(`operator/page?${PAGE}`)).status).toBe(200);
    await fixture.setOperator(operatorEmail, false);
    expect((await operator.get(`operator/page?${PAGE}`)).status).toBe(403);
    expect((await operator.get('session')).body.data.user.operator).toBe(false);
    await fixture.setOperator(operatorEmail, true);
    expect((await operator.get(`operator/page?${PAGE}`)).status).toBe(200);
    const trail = await fixture.users.operatorEvents(10);
    expect(trail.filter((e) => e.email === operatorEmail).map((e) => e.action)).toEqual(['grant', 'revoke', 'grant']);
  });

  describe('without the watcher', () => {
    let plain: RunningConsole;
    let away: RunningConsole;
    beforeAll(async () => {
      plain = await startConsole({ metering: fixture.metering, users: fixture.users });
      // The watcher's address, nobody listening: a port taken from a server that has ended.
      const client = createCoreClient({ address: '127.0.0.1:9', watcherAddress: '127.0.0.1:9', serviceToken: SERVICE_TOKEN, deadlineMs: 2_000 });
      away = await startConsole({ metering: fixture.metering, users: fixture.users, archive: createClientArchiveApi({ client }) });
    });
    afterAll(async () => {
      await plain?.close();
      await away?.close();
    });

    it('answers 501 when the console has no watcher address, and 503 when the watcher does not answer', async () => {
      for (const [server, status] of [[plain, 501], [away, 503]] as const) {
        const client = new ConsoleClient(server.base);
        expect((await client.signIn(operatorEmail)).status).toBe(200);
        expect((await client.get('session')).body.data.archive).toBe(server === away);
        const answer = await client.get(`operator/page?${PAGE}`);
        expect(answer.status).toBe(status);
        expect(answer.body).toMatchObject({ success: false, errors: [{ code: status }] });
        // Input is still checked first.
        expect((await client.get('operator/page?marketplace=XX')).status).toBe(400);
      }
    });
  });
});
