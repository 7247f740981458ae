/**
 * What a person finds in a browser at the service's address (`npm start` against the replay server,
 * Debian chromium via playwright-core): the landing page and every link on it, the API reference
 * loading the served OpenAPI document and calling the API with the development key from "Try it
 * out", and GraphiQL running a query with the key set in its Headers tab. Every page loads only from
 * this origin: a CSP violation, a failed asset or a script error fails the test. Screenshots at
 * 390 px and at desktop width go to .tmp/screenshots (not committed).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

const SHOTS = resolve(import.meta.dirname, '../../.tmp/screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/**
 * What a page shows once the request it makes after its load event has answered: Swagger UI parses
 * its bundle (over 0.5 s here, so "network idle" comes before it) and then fetches the OpenAPI
 * document, whose title it then renders.
 */
const RENDERED_AFTER_FETCH = { '/api/docs/': '.swagger-ui .information-container .title' } as const;
/** A product the project's fixture pages hold (test/fixtures/pages). */
const ASIN = 'B0FXTUS001';

describe.skipIf(missing !== null)('the service in a browser', () => {
  let running: OneProcess;
  let browser: LaunchedBrowser;
  let page: Page;
  let problems: string[];
  let title: string;

  beforeAll(async () => {
    running = await startOneProcess();
    browser = await launchChromium({ viewport: DESKTOP });
    page = await browser.context.newPage();
    problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(running.stack.url) && !request.url().startsWith('data:')) problems.push(`left the origin: ${request.url()}`);
    });
    mkdirSync(SHOTS, { recursive: true });
    const product = await fetch(`${running.stack.url}/api/retail/product?asin=${ASIN}`, { headers: { 'API-KEY': running.stack.devKey } });
    title = ((await product.json()) as { data: { retailProduct: { title: string } } }).data.retailProduct.title;
  });
  // Each test answers for the problems of its own pages.
  beforeEach(() => {
    problems.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  /** Screenshots of the page as it is, at 390 px and at desktop width (the page is left at desktop width). */
  async function screenshots(name: string): Promise<void> {
    for (const [label, size] of [['390', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: label === '390' && name !== 'graphiql' });
    }
  }

  it('has a landing page whose every link opens', async () => {
    const response = await page.goto(`${running.stack.url}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Retail Data API');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const hrefs = await page.locator('main a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/api/docs/', '/api/graphql', '/console/', '/docs/', '/api/openapi.json', '/healthz', '/readyz']);
    await screenshots('landing');
    // No element wider than a phone's screen.
    await page.setViewportSize(PHONE);
    const tooWide = await page.evaluate('[...document.querySelectorAll("main > *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).length');
    expect(tooWide).toBe(0);
    await page.setViewportSize(DESKTOP);

    for (const href of hrefs) {
      await page.goto(`${running.stack.url}/`);
      await page.locator(`main a[href="${href}"]`).click();
      // The new page loaded (waitForLoadState alone could answer for the landing page, before the
      // click's navigation), and what it fetches after its load event done: the next navigation
      // would abort that, a failed request here.
      await page.waitForURL(`${running.stack.url}${href}`, { waitUntil: 'load' });
      const rendered = RENDERED_AFTER_FETCH[href as keyof typeof RENDERED_AFTER_FETCH];
      if (rendered) await page.locator(rendered).first().waitFor();
      expect(new URL(page.url()).pathname).toBe(href);
      const status = await page.evaluate('performance.getEntriesByType("navigation")[0].responseStatus');
      expect(status, href).toBe(200);
    }
    // The documentation site (test/app/docs-site.test.ts tries it in depth): a guide, then another by the sidebar.
    await page.goto(`${running.stack.url}/docs/quick-start.html`);
    await page.locator('.VPSidebar').getByRole('link', { name: 'gRPC', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /gRPC/ }).waitFor();
    await screenshots('docs-grpc');
    expect(problems).toEqual([]);
  }, 120_000);

  it('has an API reference that loads the served document and calls the API with the key from "Try it out"', async () => {
    await page.goto(`${running.stack.url}/api/docs/`);
    const operation = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/api/retail/product"]') });
    await operation.waitFor();
    await screenshots('api-reference');

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const apiKeyForm = page.locator('.auth-container', { hasText: 'ApiKeyAuth' });
    await apiKeyForm.locator('input').fill(running.stack.devKey);
    await apiKeyForm.locator('button.authorize').click();
    await apiKeyForm.getByRole('button', { name: 'Remove authorization' }).or(apiKeyForm.locator('button.logout')).first().waitFor();
    await page.locator('.auth-btn-wrapper .btn-done').first().click();

    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('input[placeholder="asin"]').fill(ASIN);
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table .response');
    await live.waitFor();
    expect((await live.locator('.response-col_status').textContent())?.trim()).toBe('200');
    expect(await live.locator('.response-col_description').textContent()).toContain(title);
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/api-reference-try-390.png` });
    await page.setViewportSize(DESKTOP);
    expect(problems).toEqual([]);
  }, 60_000);

  it('serves GraphiQL to a browser, which runs a query with the key from its Headers tab', async () => {
    const response = await page.goto(`${running.stack.url}/api/graphql`);
    expect(response?.headers()['content-type']).toMatch(/text\/html/);
    await page.locator('.graphiql-container').waitFor();
    // Without a key nothing is sent, and the result says where the key goes.
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => page.locator('.result-window').textContent()).toContain('Put your API key in the Headers tab');

    // The Headers tab is open first; the key goes in as a person would paste it.
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror');
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(JSON.stringify({ 'API-KEY': running.stack.devKey }));
    const query = page.locator('.graphiql-query-editor .CodeMirror');
    await query.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(`{ retailProduct(asin: "${ASIN}", domain: US) { title } }`);
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.result-window');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain(title);
    expect(await result.textContent()).not.toContain('"errors"');
    await screenshots('graphiql');
    // The key also fetched the schema: the documentation explorer shows the root types.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor();
    expect(problems).toEqual([]);
  }, 60_000);
});
