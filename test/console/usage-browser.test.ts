/**
 * The account page's usage chart in a real browser (Debian chromium via playwright-core), at 1280 and
 * 390 px: calls and units per day over the last 30 days, for every key and for one, drawn from what
 * the real metering library charged and its record (PGlite) kept; the CSV download; no console error
 * (the page's CSP allows only its own origin: uPlot comes from /console/vendor). Calls are charged
 * through the meter on three different days (its clock moved), as a gateway charges them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { createPgliteDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { GOOD_PASSWORD, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

const DAY_MS = 86_400_000;

describe.skipIf(missing !== null)('the usage chart in chromium', () => {
  let db: Database;
  let metering: MeteringInstance;
  let server: RunningConsole;
  let browser: LaunchedBrowser;
  let page: Page;
  let offsetMs = 0;
  const problems: string[] = [];

  beforeAll(async () => {
    db = await createPgliteDatabase();
    metering = await createMetering({ record: db, clock: () => Date.now() + offsetMs, log: () => undefined });
    server = await startConsole({ metering, usageHistory: metering.usageHistory });
    browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await metering?.close();
    await db?.close();
  });

  /** Creates a key through the page's form and reads it from the one-time panel. */
  async function createKey(label: string): Promise<string> {
    await page.getByLabel('Label (optional)').first().fill(label);
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = page.locator('#new-key-value');
    await expect.poll(() => value.inputValue()).toMatch(/^rk_/);
    const key = await value.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    return key;
  }

  /** Charges `calls` calls of `operations` with `key`, `daysAgo` days back. */
  async function charge(key: string, daysAgo: number, calls: number, operations = ['GetProduct']) {
    offsetMs = -daysAgo * DAY_MS;
    for (let i = 0; i < calls; i++) {
      const admitted = await metering.meter.admit({ key, interface: 'rest', operations, shapeValid: true, requestId: `r${i}` });
      if (!admitted.ok) throw new Error(`refused: ${JSON.stringify(admitted)}`);
      expect((await metering.meter.settle(admitted.hold, operations.length)).charged).toBe(operations.length);
    }
    offsetMs = 0;
  }

  const chart = () => page.locator('#usage-chart');
  const totals = async () => ({ calls: await chart().getAttribute('data-calls'), units: await chart().getAttribute('data-units') });

  it('draws calls and units per day, filters by key, and downloads the rows as CSV', async () => {
    await page.goto(`${server.base}/`);
    await page.getByLabel('Email', { exact: true }).last().fill(uniqueEmail('usage-browser'));
    await page.getByLabel('Password', { exact: true }).last().fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Usage, last 30 days' }).waitFor();
    // A new account: the chart is drawn, empty, and says so.
    await expect.poll(totals).toEqual({ calls: '0', units: '0' });
    expect(await page.locator('#usage-chart-summary').textContent()).toMatch(/^No charged calls in the last 30 days/);

    const alpha = await createKey('alpha');
    const beta = await createKey('beta');
    await charge(alpha, 5, 3);
    await charge(alpha, 2, 2);
    await charge(beta, 2, 3);
    await charge(beta, 2, 1, ['GetProduct', 'GetProductOffers']); // a GraphQL-like call of two operations: 2 units
    await charge(beta, 0, 1);
    await charge(alpha, 40, 2); // older than the chart's 30 days
    const auth = await metering.meter.authenticate(alpha, 'rest');
    if (!auth.ok) throw new Error('the key does not authenticate');
    const accountId = auth.accountId;
    // The hand-off writes the record in batches: wait until it holds every call.
    await vi.waitFor(async () => {
      const rows = await metering.usageHistory!(accountId, { from: Date.now() - 60 * DAY_MS, to: Date.now() + DAY_MS, granularity: 'day', groupBy: [] });
      expect(rows.reduce((sum, row) => sum + row.units, 0)).toBe(13);
    }, { timeout: 20_000, interval: 200 });

    await page.reload();
    await page.getByRole('heading', { name: 'Usage, last 30 days' }).waitFor();
    await expect.poll(totals).toEqual({ calls: '10', units: '11' });
    expect(await page.locator('#usage-chart canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('#usage-chart-summary').textContent()).toMatch(/^Last 30 days, all keys: 10 calls, 11 units; busiest day .+ \(6 calls\)\.$/);
    expect(await chart().getAttribute('aria-labelledby')).toBe('usage-chart-summary');

    const shots = mkdtempSync(join(tmpdir(), 'usage-screenshot-'));
    await page.locator('#usage-chart-section').screenshot({ path: join(shots, 'usage-1280.png') });

    // One key: only its calls; back to all.
    await page.getByLabel('Key', { exact: true }).selectOption({ label: 'beta' });
    await expect.poll(totals).toEqual({ calls: '5', units: '6' });
    expect(await page.locator('#usage-chart-summary').textContent()).toMatch(/key “beta”: 5 calls, 6 units/);
    await page.locator('#usage-chart-section').screenshot({ path: join(shots, 'usage-1280-beta.png') });
    await page.getByLabel('Key', { exact: true }).selectOption({ label: 'All keys' });
    await expect.poll(totals).toEqual({ calls: '10', units: '11' });

    // The CSV link: the same rows per key, call and interface, with the session (all 30 days' and older rows are not in it).
    const href = await page.locator('#usage-csv').getAttribute('href');
    const csv = await page.evaluate(async (url) => {
      const response = await fetch(url, { credentials: 'same-origin' });
      return { type: response.headers.get('content-type'), text: await response.text() };
    }, href!);
    expect(csv.type).toMatch(/^text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('period,keyId,operation,interface,calls,units');
    expect(lines.slice(1).map((line) => line.split(',')).reduce((sum, cells) => sum + Number(cells[5]), 0)).toBe(11);

    // A phone: the chart fits, nothing sticks out.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await chart().boundingBox())?.width ?? 0).toBeLessThanOrEqual(390);
    const overflowing = await page.evaluate(`[...document.querySelectorAll('body *')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.table-scroll'))
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''))`);
    expect(overflowing).toEqual([]);
    await page.locator('#usage-chart-section').screenshot({ path: join(shots, 'usage-390.png') });
    await page.screenshot({ path: join(shots, 'account-390.png'), fullPage: true });
    console.log(`usage chart screenshots: ${shots}`);
    expect(problems).toEqual([]);
  });

  it('refuses a bad query from the console API in the envelope, naming the parameter', async () => {
    const answer = await page.evaluate(async () => {
      const response = await fetch('api/account/usage?granularity=week', { credentials: 'same-origin' });
      return { status: response.status, body: await response.json() };
    });
    expect(answer).toEqual({ status: 400, body: { success: false, errors: [{ code: 400, message: 'granularity must be one of day, hour; got "week"', path: ['query', 'granularity'] }] } });
  });
});
