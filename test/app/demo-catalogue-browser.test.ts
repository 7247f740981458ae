/**
 * The demo catalogue page in a real browser (Debian chromium via playwright-core) at a phone's
 * width: the real router serving the catalogue of the project's fixture recordings. Readable at
 * 390 px (nothing wider than the screen), every marketplace reachable from the page's own links,
 * every request shown with its link and curl line, no script and no request to another origin.
 */
import type { AddressInfo } from 'node:net';
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
    page = await browser.context.newPage();
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('request', (request) => requested.push(request.url()));
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows every request with its link and curl, fits the screen, and loads nothing else', async () => {
    await page.goto(`${origin}${DEMO_CATALOGUE_PATH}`);
    expect(await page.title()).toBe('What the demo knows');
    await page.screenshot({ path: process.env.SCREENSHOT_PATH ?? '/tmp/demo-catalogue-390.png', fullPage: false });

    // Nothing is wider than the phone: no sideways scrolling.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // No script at all, so nothing depends on a CDN or on JavaScript being on.
    expect(await page.locator('script').count()).toBe(0);

    // Each of the 13 marketplaces has its section, reached from the navigation.
    for (const domain of catalogue.marketplaces) {
      await page.getByRole('navigation', { name: 'Marketplaces' }).getByRole('link', { name: domain, exact: true }).click();
      expect(page.url()).toBe(`${origin}${DEMO_CATALOGUE_PATH}#${domain}`);
      await expect.poll(() => page.locator(`section#${domain} h2`).isVisible()).toBe(true);
    }

    // One link and one curl line per listed request, pointing at this origin's REST API.
    const links = await page.evaluate<string[]>('[...document.querySelectorAll("ul.entries li > a")].map((a) => a.href)');
    expect(links).toHaveLength(catalogue.entries.length + catalogue.errors.length);
    expect(links.every((href) => href.startsWith(`${origin}/api/retail/`))).toBe(true);
    const mx = page.locator('section#MX');
    await expect.poll(() => mx.getByText("curl -s -H \"API-KEY: $KEY\" 'http://127.0.0.1", { exact: false }).first().isVisible()).toBe(true);
    expect(await mx.locator('h3').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('GET /api/retail/bestsellers')]));

    expect(problems).toEqual([]);
    expect(requested.every((url) => url.startsWith(origin))).toBe(true);
  });
});
