/**
 * The Operator view through `npm start`'s own wiring (app/src/stack.ts), end to end on real parts: the
 * one-process stack on a real PostgreSQL (DATABASE_URL) reading the replay server. A customer's watch
 * makes the watcher refresh the product through the core, which archives every watch-refresh page;
 * the watcher records it; an operator granted by the admin command (against the same database while
 * the stack runs: PostgreSQL, unlike PGlite, takes several processes) finds it in the console with
 * the price the parser read, the price the customer's lookup answers. Skips, saying so, without
 * PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsoleOperatorsCommand } from '@retail/console';
import { openConsoleUsers } from '../../app/src/console-operators.js';
import { ConsoleClient, uniqueEmail } from '../console/harness.js';
import { startOneProcess, type OneProcess } from '../harness/one-process.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../harness/postgres.js';

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

const ASIN = 'B0FXTUS001';

describe.skipIf(missing !== null)('the Operator view in npm start', () => {
  let database: TestDatabase;
  let running: OneProcess;

  beforeAll(async () => {
    database = await createTestDatabase('console_operator_stack');
    running = await startOneProcess({ DATABASE_URL: database.url, WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    await database?.drop();
  });

  it('finds the page a customer\'s watch refreshed, with the price the parser read, once the role is granted', async () => {
    const customer = new ConsoleClient(`${running.stack.url}/console`);
    expect((await customer.signUp(uniqueEmail('stack-customer'))).status).toBe(201);
    const watch = await customer.post('watches', { asin: ASIN, domain: 'US', intervalSeconds: 3600 });
    expect(watch.status).toBe(200);
    const key = (await customer.post('keys', { label: 'lookup' })).body.data.key as string;
    const lookup = await fetch(`${running.stack.url}/api/retail/product?asin=${ASIN}&domain=US`, { headers: { 'api-key': key } });
    expect(lookup.status).toBe(200);
    const price = ((await lookup.json()) as { data: { retailProduct: { price: { value: number } } } }).data.retailProduct.price.value;

    const email = uniqueEmail('stack-operator');
    const operator = new ConsoleClient(`${running.stack.url}/console`);
    expect((await operator.signUp(email)).status).toBe(201);
    expect((await operator.get('session')).body.data.archive).toBe(true);
    expect((await operator.get(`operator/page?marketplace=US&kind=product&identifier=${ASIN}`)).status).toBe(403);

    const out: string[] = [];
    const granted = await runConsoleOperatorsCommand(['grant', '--email', email], { out: (line) => out.push(line), err: () => undefined },
      (where) => openConsoleUsers(where, { DATABASE_URL: database.url }), { actor: 'admin-cli:test' });
    expect(granted).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ email, action: 'grant' });

    // The watch's first refresh runs shortly; the watcher records its page from the hand-off. (The
    // lookup's page may be kept too, as a 1 % sample: the refresh's is the one looked for.)
    const PAGE = `marketplace=US&kind=product&identifier=${ASIN}`;
    const refreshed = async () => ((await operator.get(`operator/pages?${PAGE}`)).body.data.pages as Array<{ id: string; fetchedAt: string; reason: string }>).find((p) => p.reason === 'watch-refresh');
    await expect.poll(refreshed, { timeout: 30_000 }).toBeDefined();
    const { id, fetchedAt } = (await refreshed())!;
    const found = (await operator.get(`operator/page?${PAGE}&at=${fetchedAt}&id=${id}`)).body.data;
    expect(found.page).toMatchObject({ id, marketplace: 'US', kind: 'product', identifier: ASIN, status: 200, reason: 'watch-refresh' });
    expect(JSON.stringify(found.parsed)).toContain(String(price));
    const raw = await fetch(`${running.stack.url}/console/api/operator/page/raw?${PAGE}&at=${fetchedAt}&id=${id}`, { headers: { cookie: operator.cookie! } });
    expect(raw.headers.get('content-security-policy')).toBe('sandbox');
    expect(await raw.text()).toMatch(/<html/i);
  }, 60_000);
});
