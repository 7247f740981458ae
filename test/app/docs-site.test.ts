/**
 * The documentation site as a reader meets it at the service's `/docs/` (`npm start`'s one process,
 * Debian chromium via playwright-core): the sidebar leads between the sections, the local search finds
 * a term and opens its page, the code samples switch between curl, TypeScript and Python, every page
 * loads under the site's CSP without a violation or a script error and without a request to another
 * origin, and every link of every page (the built HTML, crawled from /docs/) answers, its `#anchor`
 * included. Screenshots at 1280 and 390 px go to .tmp/screenshots (not committed).
 *
 * It serves the site `npm ci` built (the root `prepare` script); when the Markdown is newer than the
 * build, it builds again first, so it never checks a stale site.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { collectPageProblems } from '../harness/page-problems.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');
const SITE = join(DOCS, '.vitepress/dist');
const SHOTS = join(ROOT, '.tmp/screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const SECTIONS = ['Guides', 'Reference', 'Operations', 'Engineering notes'];

function buildSiteWhenStale(): void {
  const sources = [...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name)), join(DOCS, '.vitepress/config.ts')];
  const built = existsSync(join(SITE, 'index.html')) ? statSync(join(SITE, 'index.html')).mtimeMs : 0;
  if (sources.some((file) => statSync(file).mtimeMs > built)) execFileSync('npx', ['vitepress', 'build', 'docs'], { cwd: ROOT, stdio: 'ignore' });
}

/** The `href`s and element ids of an HTML page (the links VitePress rendered on the server). */
function linksAndIds(html: string): { hrefs: string[]; ids: Set<string> } {
  const elements = DomUtils.findAll(() => true, parseDocument(html).children);
  return {
    hrefs: elements.filter((element) => element.name === 'a' && element.attribs.href).map((element) => element.attribs.href!),
    ids: new Set(elements.map((element) => element.attribs.id).filter((id): id is string => Boolean(id))),
  };
}

describe.skipIf(missing !== null)('the documentation site at /docs/ in a browser', () => {
  let running: OneProcess;
  let browser: LaunchedBrowser;
  let page: Page;
  let base: string;
  let problems: string[];

  beforeAll(async () => {
    buildSiteWhenStale();
    running = await startOneProcess();
    base = running.stack.url;
    browser = await launchChromium({ viewport: DESKTOP });
    page = await browser.context.newPage();
    problems = collectPageProblems(page, base);
    mkdirSync(SHOTS, { recursive: true });
  }, 180_000);
  beforeEach(() => {
    problems.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  async function screenshots(name: string): Promise<void> {
    for (const [label, size] of [['390', PHONE], ['1280', DESKTOP]] as const) {
      await page.setViewportSize(size);
      // Transitions finished at once: the sidebar slides away when the width drops to a phone's.
      await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, animations: 'disabled' });
    }
  }

  it('leads from the home page through the sidebar\'s sections, and the samples switch language', async () => {
    await page.goto(`${base}/docs/`);
    await page.getByRole('heading', { level: 1, name: 'Retail Data API' }).waitFor();
    await screenshots('docs-home');
    await page.getByRole('link', { name: 'Quick start' }).first().click();
    await page.waitForURL(`${base}/docs/quick-start.html`);
    await page.getByRole('heading', { level: 1, name: 'Quick start' }).waitFor();
    const sidebar = page.locator('.VPSidebar');
    for (const section of SECTIONS) await expect(sidebar.getByRole('heading', { name: section, exact: true }).isVisible()).resolves.toBe(true);
    await screenshots('docs-quick-start');

    // curl first; the Python tab shows the Python sample of the same call.
    const group = page.locator('.vp-code-group').first();
    await expect(group.locator('.blocks > .active').innerText()).resolves.toContain('curl -s -H "API-KEY: $KEY"');
    await group.locator('.tabs label', { hasText: 'Python' }).click();
    await expect(group.locator('.blocks > .active').innerText()).resolves.toContain('urllib.request');
    await group.locator('.tabs label', { hasText: 'TypeScript' }).click();
    await expect(group.locator('.blocks > .active').innerText()).resolves.toContain('await fetch(');

    // One page of each section, by its sidebar link (the site's own navigation, no reload).
    for (const [text, path, heading] of [['Errors', 'reference-errors.html', 'Errors'], ['Deploy', 'deploy.html', /^Deploying/], ['Architecture', 'architecture.html', 'Architecture']] as const) {
      const link = sidebar.getByRole('link', { name: text, exact: true });
      if (!(await link.isVisible())) await sidebar.getByRole('heading', { name: 'Engineering notes', exact: true }).click(); // collapsed by default
      await link.click();
      await page.waitForURL(`${base}/docs/${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    // The generated reference is on its page: the operations table names every interface.
    await page.goto(`${base}/docs/reference-operations.html`);
    await page.getByRole('cell', { name: /retail_product$/ }).first().waitFor();
    await screenshots('docs-reference-operations');
    expect(problems).toEqual([]);
  }, 120_000);

  it('opens the sidebar from the menu button on a phone and leads to a page', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.goto(`${base}/docs/quick-start.html`);
      const sidebar = page.locator('.VPSidebar');
      await page.locator('button[aria-controls="VPSidebarNav"]').click(); // the bar's "Menu", not the top navigation's
      await sidebar.getByRole('link', { name: 'Limits', exact: true }).click();
      await page.waitForURL(`${base}/docs/limits.html`);
      await page.getByRole('heading', { level: 1, name: 'Limits' }).waitFor();
      // No element of the page wider than the phone's screen (tables scroll inside their own box).
      const [blocks, tooWide] = await page.evaluate<[number, number]>('(() => { const blocks = [...document.querySelectorAll(".vp-doc > div > *")]; return [blocks.length, blocks.filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).length]; })()');
      expect(blocks).toBeGreaterThan(10);
      expect(tooWide).toBe(0);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('finds a term with the local search and opens its page', async () => {
    await page.goto(`${base}/docs/quick-start.html`);
    await page.locator('.VPNavBarSearch button').click();
    const input = page.locator('#localsearch-input');
    await input.waitFor();
    await input.fill('Skaffold');
    const result = page.locator('.VPLocalSearchBox .results a[href*="deploy.html"]').first();
    await result.waitFor();
    await screenshots('docs-search');
    await result.click();
    await page.waitForURL(new RegExp(`^${base}/docs/deploy\\.html`));
    await page.getByRole('heading', { level: 1, name: /^Deploying/ }).waitFor();
    expect(problems).toEqual([]);
  }, 60_000);

  it('has no link that does not answer, on any page, and every page loads without a problem', async () => {
    const queue = [`${base}/docs/`];
    const seen = new Set(queue);
    const pages = new Map<string, Set<string>>();
    const broken: string[] = [];
    const anchors: { from: string; page: string; id: string }[] = [];
    while (queue.length) {
      const url = queue.shift()!;
      const response = await fetch(url);
      if (response.status !== 200) {
        broken.push(`${url}: ${response.status}`);
        continue;
      }
      if (!response.headers.get('content-type')?.startsWith('text/html')) continue;
      const { hrefs, ids } = linksAndIds(await response.text());
      pages.set(url, ids);
      for (const href of hrefs) {
        const target = new URL(href, url);
        if (target.origin !== base) continue; // the pages link to no other origin today; the browser check below would see a request
        if (target.hash.length > 1) anchors.push({ from: url, page: `${target.origin}${target.pathname}`, id: decodeURIComponent(target.hash.slice(1)) });
        target.hash = '';
        // The crawl stays in the site; the service's other pages (the API reference) only have to answer.
        if (!seen.has(target.href) && (target.pathname.startsWith('/docs/') || (await fetch(target.href)).status !== 200)) {
          seen.add(target.href);
          if (target.pathname.startsWith('/docs/')) queue.push(target.href);
          else broken.push(`${target.href} (from ${url})`);
        }
      }
    }
    const docsPages = [...pages.keys()];
    expect(docsPages.length).toBeGreaterThanOrEqual(readdirSync(DOCS).filter((name) => name.endsWith('.md')).length);
    expect(broken).toEqual([]);
    expect(anchors.filter(({ page: target, id }) => !pages.get(target)?.has(id)).map(({ from, page: target, id }) => `${from} → ${target}#${id}`)).toEqual([]);

    for (const url of docsPages) {
      await page.goto(url, { waitUntil: 'networkidle' });
      expect(problems, url).toEqual([]);
    }
  }, 300_000);
});
