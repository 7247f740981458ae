/**
 * The Operator view in a real browser (Debian chromium via playwright-core) at 1280 and 390 px, on
 * real parts (archive-fixture.ts: PostgreSQL, the watcher's gRPC ArchivedPageService, the console on
 * a real port): a signed-up user has no Operator view until the role is granted; then finds a page by
 * marketplace, kind, identifier and time, sees the parsed price, picks another page from the list,
 * and downloads the raw page, which is never run in the console. No console error, no CSP refusal.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { postgresMissing } from '../harness/postgres.js';
import { ASIN, FETCHES, htmlOf, startArchiveFixture, type ArchiveFixture } from './archive-fixture.js';
import { GOOD_PASSWORD, uniqueEmail } from './harness.js';

const missing = chromiumMissing() ?? (await postgresMissing());
if (missing) console.warn(`[skip] ${missing}`);

const SCREENSHOTS = process.env.OPERATOR_SCREENSHOTS; // a directory: the test leaves its screenshots there

describe.skipIf(missing !== null)('the Operator view in chromium', () => {
  let fixture: ArchiveFixture;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    fixture = await startArchiveFixture('console_operator_browser');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  async function openPage(width: number): Promise<{ page: Page; problems: string[] }> {
    // One browser profile for both widths: each starts signed out.
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    return { page, problems };
  }

  const overflowing = (page: Page) =>
    page.evaluate(`[...document.querySelectorAll('body *')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.table-scroll') && !e.closest('pre'))
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''))`);

  for (const width of [1280, 390]) {
    it(`shows the view only once the role is granted, finds a page and its parsed price, and downloads it as text, at ${width} px`, async () => {
      const { page, problems } = await openPage(width);
      const email = uniqueEmail(`operator-${width}`);
      await page.goto(`${fixture.console.base}/`);
      await page.getByLabel('Email', { exact: true }).last().fill(email);
      await page.getByLabel('Password', { exact: true }).last().fill(GOOD_PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Console sections' });
      expect(await nav.getByRole('link', { name: 'Operator' }).isVisible()).toBe(false);

      await fixture.setOperator(email, true);
      await page.reload();
      await nav.getByRole('link', { name: 'Operator' }).click();
      await page.getByRole('heading', { name: 'Archived pages' }).waitFor();

      const form = page.locator('#operator-form');
      await form.getByLabel('Marketplace').selectOption('US');
      await form.getByLabel('Page kind').selectOption('product');
      await form.getByLabel('Identifier').fill(ASIN);
      // The browser runs in UTC (launchChromium): the local time is the UTC time.
      await form.getByLabel('Time (optional: now)').fill('2026-11-28T09:30:00');
      await page.getByRole('button', { name: 'Find page' }).click();

      const parsed = page.locator('#operator-parsed');
      await expect.poll(() => parsed.textContent()).toContain('"value": 10');
      // Parser output is text: the title's markup is shown, not made into elements.
      expect(await parsed.textContent()).toContain('<b>Espresso</b> machine');
      expect(await page.locator('#operator-parsed b').count()).toBe(0);
      expect(await page.locator('#operator-page-url').textContent()).toBe(`https://www.amazon.com/dp/${ASIN}`);
      expect(await page.locator('#operator-page-reason').textContent()).toBe('watch-refresh');
      expect(await page.locator('#operator-page-parser').textContent()).toBe('product-page@3');
      // With a time: the pages up to the one found (only the first here), that one marked.
      const rows = page.locator('#operator-pages-body tr');
      expect(await rows.count()).toBe(1);
      expect(await rows.first().getAttribute('aria-current')).toBe('true');

      // Without a time: the newest, and every page to pick from; picking the unreadable one shows why.
      await form.getByLabel('Time (optional: now)').fill('');
      await page.getByRole('button', { name: 'Find page' }).click();
      await expect.poll(() => rows.count()).toBe(3);
      await expect.poll(() => parsed.textContent()).toContain('"value": 8');
      await page.getByRole('button', { name: /Show the page fetched/ }).nth(1).click();
      await expect.poll(() => parsed.textContent()).toBe('The parser could not read this page.');
      expect(await page.locator('#operator-page-missing').textContent()).toBe('title, price');
      await page.getByRole('button', { name: /Show the page fetched/ }).first().click();
      await expect.poll(() => parsed.textContent()).toContain('"value": 8');
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/operator-${width}.png`, fullPage: true });
      expect(await overflowing(page)).toEqual([]);

      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download the raw page/ }).click()]);
      expect(file.suggestedFilename()).toBe(`US-product-${ASIN}-${FETCHES[2].replace(/:/g, '_')}.html`);
      expect(readFileSync(await file.path(), 'utf8')).toBe(htmlOf(8));
      // The archived page's script never ran in the console's origin.
      expect(await page.evaluate('window.__archivedPageRan')).toBeUndefined();

      // A bad identifier is a field error beside its field.
      await form.getByLabel('Identifier').fill(' ');
      await page.getByRole('button', { name: 'Find page' }).click();
      await expect.poll(() => page.locator('#operator-identifier-error').textContent()).toMatch(/Identifier is required/);
      expect(await form.getByLabel('Identifier').getAttribute('aria-invalid')).toBe('true');

      // Revoked: the next request is refused and the view goes away.
      await fixture.setOperator(email, false);
      await form.getByLabel('Identifier').fill(ASIN);
      await page.getByRole('button', { name: 'Find page' }).click();
      await expect.poll(() => nav.getByRole('link', { name: 'Operator' }).isVisible()).toBe(false);
      expect(await page.locator('#operator-view').isVisible()).toBe(false);
      expect(problems.filter((text) => !/status of 40[03]/.test(text))).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
