/**
 * What a person finds in a browser at the service's address (`npm start` against the replay server,
 * Debian chromium via playwright-core): the landing page and every link on it, the API reference
 * (Scalar) loading the served OpenAPI document with samples in curl, TypeScript and Python, its key
 * field filled in from the console session when signed in (and calling the API with it from "Test
 * Request") and empty otherwise, and GraphiQL running a query with the key set in its Headers tab. Every page loads only from
 * this origin: a CSP violation, a failed asset or a script error fails the test. Screenshots at
 * 390 px and at desktop width go to .tmp/screenshots (not committed).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { collectPageProblems } from '../harness/page-problems.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

const SHOTS = resolve(import.meta.dirname, '../../.tmp/screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/**
 * What a page shows once the requests it makes after its load event have answered: the API reference
 * asks the console for a key, then Scalar fetches the OpenAPI document, whose title it then renders.
 */
const RENDERED_AFTER_FETCH = { '/api/docs/': 'h1:has-text("Retail product data API")' } as const;
/** Pages that scroll inside their own panes (a full-page shot would be the viewport, or metres of reference). */
const VIEWPORT_ONLY = new Set(['graphiql', 'api-reference']);
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
    problems = collectPageProblems(page, running.stack.url);
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
      await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: label === '390' && !VIEWPORT_ONLY.has(name) });
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

  /** The section of the product operation, as the reference renders it. */
  const productOperation = () =>
    page.locator('section', { has: page.locator('button:has(.screenreader-only:text-is("(get /api/retail/product)"))') }).last();
  /** The key field of the reference's Authentication card (the first one, in the document's introduction). */
  const keyField = () => page.getByLabel('Value', { exact: true }).first();

  it('has an API reference (Scalar) that renders the operations with samples in curl, TypeScript and Python, and no key when not signed in', async () => {
    await page.goto(`${running.stack.url}/api/docs/#tag/retail/GET/api/retail/product`);
    const operation = productOperation();
    await operation.getByRole('heading', { name: 'Normalized product details.' }).waitFor();
    await page.locator('[data-key-state="none"]').waitFor();
    expect(await keyField().inputValue()).toBe('');

    // The samples: exactly the three languages, each generated for this operation and this server.
    await operation.getByRole('button', { name: /Change code sample language/ }).click();
    expect((await page.getByRole('option').allTextContents()).map((text) => text.trim()).sort()).toEqual(['Curl', 'Fetch', 'Requests']);
    const samples: Record<string, RegExp> = {
      Curl: new RegExp(`^curl '${running.stack.url}/api/retail/product\\?`),
      Fetch: new RegExp(`fetch\\('${running.stack.url}/api/retail/product\\?`),
      Requests: new RegExp(`^requests\\.get\\(\\s*"${running.stack.url}/api/retail/product",\\s*headers=`),
    };
    for (const [language, sample] of Object.entries(samples)) {
      if (!(await page.getByRole('option').first().isVisible())) await operation.getByRole('button', { name: /Change code sample language/ }).click();
      await page.getByRole('option', { name: language, exact: true }).click();
      await expect.poll(() => operation.locator('pre code').first().textContent(), { timeout: 10_000 }).toMatch(sample);
      expect(await operation.locator('pre code').first().textContent()).toContain('API-KEY');
    }
    await screenshots('api-reference');
    expect(problems).toEqual([]);
  }, 60_000);

  it('fills in the key when signed in to the console, and "Test Request" calls the API with it', async () => {
    // Signed in to the console in this browser (its cookie is the browser context's).
    const api = browser.context.request;
    const { data: session } = (await (await api.get(`${running.stack.url}/console/api/session`)).json()) as { data: { csrfToken: string } };
    const signUp = await api.post(`${running.stack.url}/console/api/signup`, {
      headers: { 'x-csrf-token': session.csrfToken },
      data: { email: `reference.${Date.now()}@example.com`, password: 'correct horse battery' },
    });
    expect(signUp.status()).toBe(201);
    const { csrfToken } = ((await signUp.json()) as { data: { csrfToken: string } }).data;

    await page.goto(`${running.stack.url}/`); // the same URL as before would only move to its hash
    await page.goto(`${running.stack.url}/api/docs/#tag/retail/GET/api/retail/product`);
    await page.locator('[data-key-state="console"]').waitFor();
    await expect.poll(() => keyField().inputValue()).not.toBe('');
    const key = await keyField().inputValue();
    // The key the console made for the page, listed in the console under its label.
    const { data: listed } = (await (await api.get(`${running.stack.url}/console/api/keys`)).json()) as { data: { keys: { label: string; prefix: string }[] } };
    expect(listed.keys.filter((k) => k.label === 'API reference (signed-in browser)' && key.startsWith(k.prefix))).toHaveLength(1);

    // "Test Request": the reference's client, with the key already set and one lookup key (asin) of
    // the exactly-one-of group sent (the document marks the others' examples x-disabled).
    const operation = productOperation();
    await operation.getByRole('button', { name: /Test Request/ }).click();
    const client = page.getByRole('dialog');
    expect(await client.getByLabel('Include asin in request').isChecked()).toBe(true);
    for (const other of ['url', 'gtin']) expect(await client.getByLabel(`Include ${other} in request`).isChecked(), other).toBe(false);
    const asin = client.locator('tr#asin .code-input-lite__editor').last();
    await asin.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(ASIN);
    await client.getByRole('button', { name: /^Send get request/ }).click();
    await expect.poll(() => client.textContent(), { timeout: 20_000 }).toContain(title);
    expect(await client.textContent()).toMatch(/200\s*OK/);
    for (const [label, size] of [['390', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SHOTS}/api-reference-try-${label}.png` });
    }
    await page.setViewportSize(DESKTOP);
    await page.keyboard.press('Escape');

    // Signed out, the page holds no key: the console revoked it, and the next visit fills nothing in.
    expect((await api.post(`${running.stack.url}/console/api/signout`, { headers: { 'x-csrf-token': csrfToken } })).status()).toBe(200);
    const revoked = await fetch(`${running.stack.url}/api/retail/product?asin=${ASIN}`, { headers: { 'API-KEY': key } });
    expect(revoked.status).toBe(401);
    await page.evaluate('sessionStorage.clear()');
    await page.reload();
    await page.locator('[data-key-state="none"]').waitFor();
    expect(problems).toEqual([]);
  }, 90_000);

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
