/**
 * The demo catalogue page in a real browser (Debian chromium via playwright-core) at a phone's
 * width and a desktop's: the real router serving the catalogue of the project's fixture recordings.
 * Readable at 390 px (nothing wider than the screen), every marketplace reachable from the page's own
 * links, every request shown with its curl line and a Copy button that puts exactly that line on the
 * clipboard (no link that would answer 401 without a key), nothing loaded from another origin.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createDemoCatalogueRouter } from '../../app/src/demo-catalogue/router.js';
import type { DemoCatalogue } from '../../app/src/demo-catalogue/model.js';
import { DEMO_CATALOGUE_PATH } from '../../app/src/demo-catalogue/paths.js';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { buildDemoCatalogue } from '../replay/catalogue.js';
import { createReplayServer } from '../replay/server.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)('the demo catalogue page in chromium at 390 px', () => {
  let catalogue: DemoCatalogue;
  let server: Server;
  let origin: string;
  let browser: LaunchedBrowser;
  let page: Page;
  const problems: string[] = [];
  const requested: string[] = [];

  beforeAll(async () => {
    const replay = await createReplayServer({ corpusDirs: [fileURLToPath(new URL('../fixtures/pages/', import.meta.url))] });
    catalogue = buildDemoCatalogue(replay.recordings, ['the project\'s own fixture pages'], { reviewsSession: false });
    await replay.close();
    const app = express().use(createDemoCatalogueRouter(catalogue));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium({ viewport: { width: 390, height: 844 } });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    page = await browser.context.newPage();
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('request', (request) => requested.push(request.url()));
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows every request with its curl line and a Copy button, fits the screen, and loads nothing else', async () => {
    await page.goto(`${origin}${DEMO_CATALOGUE_PATH}`);
    expect(await page.title()).toBe('What the demo knows · Retail Data API');
    const shots = mkdtempSync(join(tmpdir(), 'demo-catalogue-'));
    await page.screenshot({ path: join(shots, 'demo-catalogue-390.png'), fullPage: false });

    // Nothing is wider than the phone: no sideways scrolling. The page wears the site's theme.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe('rgb(244, 246, 250)');

    // Each of the 13 marketplaces has its section, reached from the navigation.
    for (const domain of catalogue.marketplaces) {
      await page.getByRole('navigation', { name: 'Marketplaces' }).getByRole('link', { name: domain, exact: true }).click();
      expect(page.url()).toBe(`${origin}${DEMO_CATALOGUE_PATH}#${domain}`);
      await expect.poll(() => page.locator(`section#${domain} h2`).isVisible()).toBe(true);
    }

    // One curl line and one Copy button per listed request, pointing at this origin's REST API; no
    // request is a link (a browser has no key: it would answer 401).
    const curls = await page.locator('ul.entries li pre').allTextContents();
    expect(curls).toHaveLength(catalogue.entries.length + catalogue.errors.length);
    expect(curls.every((curl) => curl.startsWith(`curl -s -H "API-KEY: $KEY" '${origin}/api/retail/`))).toBe(true);
    expect(await page.locator('ul.entries a').count()).toBe(0);
    const first = page.locator('ul.entries li').first();
    await first.getByRole('button', { name: 'Copy curl' }).click();
    await expect.poll(() => first.getByRole('button').textContent()).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(curls[0]);
    const mx = page.locator('section#MX');
    await expect.poll(() => mx.getByText("curl -s -H \"API-KEY: $KEY\" 'http://127.0.0.1", { exact: false }).first().isVisible()).toBe(true);
    expect(await mx.locator('h3').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('GET /api/retail/bestsellers')]));

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}${DEMO_CATALOGUE_PATH}#US`);
    await page.screenshot({ path: join(shots, 'demo-catalogue-1280.png'), fullPage: false });
    console.log(`demo catalogue screenshots: ${shots}`);

    expect(problems).toEqual([]);
    expect(requested.every((url) => url.startsWith(origin))).toBe(true);
  });
});
