/**
 * The Watches page in a real browser (Debian chromium via playwright-core) at a phone's width
 * (390 px): create a watch with a condition and a webhook, see the secret once, see it listed, open
 * its history and see the chart drawn from the history's points, see its event, redeliver its dead
 * delivery, pause and resume it, delete it through the dialog, and find the history's unit charged.
 * Behind the console is its real path to the watcher, createClientWatchApi over the gateways' gRPC
 * client, to the watcher's CONTRACT DOUBLE (test/harness/watch-backend.ts, shared with the gateway
 * tests; not the watcher) holding a fixed history.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Domain, WatchEventType } from '@retail/contract';
import { createClientWatchApi } from '@retail/console';
import { createCoreClient } from '@retail/gateway-shared/core-client';
import type { Metering } from '@retail/metering/api';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { startWatchBackend, type WatchBackend } from '../harness/watch-backend.js';
import { createTestMetering } from './metering.js';
import { GOOD_PASSWORD, startConsole, uniqueEmail, type RunningConsole } from './harness.js';
import { fixedHistory, HISTORY_HOURS, SUSPECT_HOURS } from './history-fixture.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

const PHONE = { width: 390, height: 844 };
const TOKEN = 'console-browser-service-token';


describe.skipIf(missing !== null)('the Watches page in chromium', () => {
  let metering: Metering;
  let backend: WatchBackend;
  let server: RunningConsole;
  let browser: LaunchedBrowser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    metering = await createTestMetering();
    backend = await startWatchBackend({ serviceToken: TOKEN });
    backend.setHistory(Domain.US, 'B000TEST01', fixedHistory());
    const client = createCoreClient({ address: backend.address, watcherAddress: backend.address, serviceToken: TOKEN, deadlineMs: 5_000 });
    server = await startConsole({ metering, watches: createClientWatchApi({ client, meter: metering.meter }) });
    browser = await launchChromium({ viewport: PHONE });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = await browser.context.newPage();
    page.on('console', (message) => {
      // The deliberate bad ASIN logs its 400; anything else (a CSP violation, a 404 asset, a script error) is a problem.
      if (message.type() === 'error' && !/status of 400 \(Bad Request\)/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await backend?.close();
    await metering?.close();
  });

  /** Elements that stick out past the viewport's right edge (a layout break at this width); none expected. */
  const overflowing = () =>
    page.evaluate(`[...document.querySelectorAll('body *')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.table-scroll'))
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''))`);

  it('creates a watch, charts its history, shows its event and redelivers its delivery, at 390 px', async () => {
    await page.goto(`${server.base}/`);
    await page.getByLabel('Email', { exact: true }).last().fill(uniqueEmail('watches-browser'));
    await page.getByLabel('Password', { exact: true }).last().fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Watches' }).click();
    await page.getByRole('heading', { name: 'Watch a product' }).waitFor();
    expect(page.url()).toMatch(/#watches$/);
    expect(await page.getByRole('link', { name: 'Watches' }).getAttribute('aria-current')).toBe('page');
    // The list loads after the page: its empty note appears once the first page of watches has come back.
    await page.locator('#watches-empty').waitFor({ state: 'visible' });

    // A bad ASIN is refused beside its field, in the declared rule's words, before the service is asked.
    const product = page.getByRole('textbox', { name: 'ASIN', exact: true });
    await product.fill('short');
    await product.press('Enter');
    await expect.poll(() => page.locator('#watch-product-error').textContent()).toMatch(/asin must match/);
    expect(await product.getAttribute('aria-invalid')).toBe('true');
    expect(backend.calls.filter((call) => call.method === 'CreateWatch')).toEqual([]);

    // Marketplace and intervals come from the proto; conditions are ticked, the price typed.
    expect(await page.locator('#watch-form').getByLabel('Marketplace').locator('option').count()).toBe(13);
    await page.locator('#watch-form').getByLabel('Marketplace').selectOption('US');
    // A new account is on the free plan, hourly at most often: the form offers nothing shorter.
    const intervals = await page.getByLabel('Refresh every').locator('option').allTextContents();
    expect(intervals[0]).toBe('1 hour');
    expect(intervals).not.toContain('15 min');
    expect(intervals).not.toContain('30 min');
    await page.getByLabel('Refresh every').selectOption({ label: '2 hours' });
    await product.fill('B000TEST01');
    await page.getByRole('checkbox', { name: 'The price is at or below' }).check();
    await page.getByLabel('Price for “The price is at or below”').fill('9');
    await page.getByRole('checkbox', { name: 'It is back in stock' }).check();
    await page.getByLabel('Webhook URL (optional)').fill('https://hooks.example.com/retail');
    await page.locator('#watch-form').getByLabel('Label (optional)').fill('kettle');
    await page.getByRole('button', { name: 'Create watch' }).click();

    // The secret once, with Copy and the warning.
    const secret = page.getByLabel('Webhook signing secret');
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^whsec_/);
    expect(await page.getByText('you will not see it again').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.locator('#copy-secret-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await secret.inputValue());
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.locator('#new-secret-value').inputValue()).toBe('');

    // What the watcher would have by now: an event of the watch and a delivery that gave up.
    const [created] = [...backend.watches.values()];
    expect(created!.watch).toMatchObject({ asin: 'B000TEST01', label: 'kettle', intervalSeconds: 7200 });
    expect(created!.watch.conditions.map((c) => c.value ?? null)).toEqual([9, null]);
    backend.addEvent(created!.accountId, created!.watch.id, WatchEventType.PRICE_AT_OR_BELOW);
    backend.addDelivery(created!.watch.id);

    const item = page.locator('li.watch').filter({ hasText: 'kettle' });
    await item.waitFor();
    expect(await item.textContent()).toContain('B000TEST01 · US · every 2 hours');
    expect(await item.textContent()).toContain('The price is at or below 9; It is back in stock');
    expect(await item.locator('.status').textContent()).toBe('Active');
    expect(await overflowing()).toEqual([]);

    // The detail: the chart is drawn from the history's points.
    await page.getByRole('button', { name: 'History and events of kettle' }).click();
    const chart = page.locator('#chart');
    await expect.poll(() => chart.getAttribute('data-points')).toBe(String(HISTORY_HOURS));
    // Opening the detail reads the history once, for the session's account.
    const reads = backend.calls.filter((call) => call.method === 'GetProductHistory');
    expect(reads.map((call) => [call.accountId, call.request.asin])).toEqual([[created!.accountId, 'B000TEST01']]);
    // The unconfirmed spike to 25,000 is not a price the summary or the line show: its span is shaded.
    expect(await page.locator('#chart-summary').textContent())
      .toBe('48 snapshots: price from $2,350.00 to $2,500.00, latest $2,399.99; out of stock in 12 of them; 2 marked suspect (a value unknown or unconfirmed, shaded; no alert fired from it).');
    expect(await chart.getAttribute('data-suspect-points')).toBe(String(SUSPECT_HOURS.length));
    expect(await chart.getAttribute('role')).toBe('img');
    // The price line is on the canvas: count pixels of its colour (#1f5fbf).
    const pricePixels = await page.evaluate(`(() => {
      const canvas = document.querySelector('#chart canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] === 31 && data[i + 1] === 95 && data[i + 2] === 191) n++;
      return n;
    })()`);
    expect(pricePixels).toBeGreaterThan(100);
    // The suspect span is an amber band (red and green well above blue; no other series is so coloured).
    const amberPixels = await page.evaluate(`(() => {
      const canvas = document.querySelector('#chart canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] > data[i + 2] + 30 && data[i + 1] > data[i + 2] + 20) n++;
      return n;
    })()`);
    expect(amberPixels).toBeGreaterThan(100);
    // The price axis is as wide as its longest label ("$2,600.00"): nothing is drawn in the canvas's
    // first two columns, where a label that did not fit would be cut off.
    const leftEdgeInk = () => page.evaluate(`(() => {
      const canvas = document.querySelector('#chart canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, 2, canvas.height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n;
    })()`);
    expect(await leftEdgeInk()).toBe(0);
    expect(await page.locator('#history-body tr').count()).toBe(HISTORY_HOURS);
    expect(await page.locator('#history-body tr.suspect td:last-child').allTextContents()).toEqual(SUSPECT_HOURS.map(() => 'Suspect · unconfirmed: price'));
    expect(await overflowing()).toEqual([]);

    // Its event, and its dead delivery redelivered.
    const event = page.locator('#events-body tr').first();
    expect(await event.textContent()).toContain('Price at or below the threshold');
    expect(await event.textContent()).toContain('price – → $8.00');
    const delivery = page.locator('#deliveries-body tr').first();
    expect(await delivery.textContent()).toContain('Gave up');
    await delivery.getByRole('button', { name: /^Redeliver event 1$/ }).click();
    await expect.poll(() => page.locator('#deliveries-body tr').first().textContent()).toContain('Pending');
    await expect.poll(() => page.locator('#notice').textContent()).toMatch(/queued for delivery again/);
    expect(backend.calls.filter((call) => call.method === 'RedeliverWebhook').map((call) => call.request.deliveryId)).toEqual(['1']);

    // "Send a test event": a WEBHOOK_TEST event through the watcher, listed with the events, its delivery queued.
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => page.locator('#notice').textContent()).toBe('Test event 2 sent to https://hooks.example.com/retail.');
    expect(backend.calls.filter((call) => call.method === 'SendTestWebhook').map((call) => [call.accountId, call.request.watchId])).toEqual([[created!.accountId, created!.watch.id]]);
    await expect.poll(() => page.locator('#events-body tr').last().textContent()).toContain('Test event');
    await expect.poll(() => page.locator('#deliveries-body tr').first().textContent()).toContain('Pending');

    const shots = mkdtempSync(join(tmpdir(), 'watches-screenshot-'));
    await page.screenshot({ path: join(shots, 'watches-390.png'), fullPage: true });
    await page.locator('#chart').screenshot({ path: join(shots, 'chart-390.png') });
    // The same page on a desktop's width: the chart follows its container, its axes still whole.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => page.evaluate('document.querySelector("#chart canvas").width / devicePixelRatio')).toBeGreaterThan(600);
    expect(await leftEdgeInk()).toBe(0);
    expect(await overflowing()).toEqual([]);
    await page.screenshot({ path: join(shots, 'watches-1280.png'), fullPage: true });
    await page.locator('#chart').screenshot({ path: join(shots, 'chart-1280.png') });
    await page.setViewportSize(PHONE);
    console.log(`watches screenshots: ${shots}`);

    // Pause and resume from the keyboard.
    await item.getByRole('button', { name: 'Pause kettle' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('li.watch .status').first().textContent()).toBe('Paused (paused by you)');
    await page.locator('li.watch').first().getByRole('button', { name: 'Resume kettle' }).click();
    await expect.poll(() => page.locator('li.watch .status').first().textContent()).toBe('Active');

    // Delete through the dialog: Escape keeps it, Delete removes it.
    await page.getByRole('button', { name: 'Delete kettle' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.locator('li.watch').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete kettle' }).click();
    await dialog.getByRole('button', { name: 'Delete watch' }).click();
    await page.locator('#watches-empty').waitFor();
    expect(await page.locator('#watch-detail').isHidden()).toBe(true);

    // The account view is one link away: the history read cost one unit, recorded as such.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await expect.poll(() => page.locator('#balance').textContent()).toBe('99');
    // Charged to the account as watch work (no key), named by the route of what it read.
    const historyRow = page.getByRole('row').filter({ hasText: 'GET /api/retail/product/history' });
    expect(await historyRow.locator('td').allTextContents()).toEqual([expect.any(String), 'GET /api/retail/product/history', 'Watches', '1']);
    expect(await overflowing()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
