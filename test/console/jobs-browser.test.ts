/**
 * The Jobs page in a real browser (Debian chromium via playwright-core) at a phone's width (390 px),
 * on `npm start`'s composition (the real watcher on PGlite and its in-memory job system, the real
 * core reading the replay server): sign up, start a job from a list of ASINs with a malformed line
 * mixed in, watch its progress bar reach the end and its status turn Done without reloading,
 * download its results as NDJSON and CSV through the console's own endpoint (the session is the
 * credential), and cancel a second job (its item blocked, so it is still running) through the dialog.
 */
import { readFileSync } from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';
import { GOOD_PASSWORD, uniqueEmail } from './harness.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

const PHONE = { width: 390, height: 844 };

describe.skipIf(missing !== null)('the Jobs page in chromium', () => {
  let running: OneProcess;
  let browser: LaunchedBrowser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    running = await startOneProcess();
    browser = await launchChromium({ viewport: PHONE });
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  const overflowing = () =>
    page.evaluate(`[...document.querySelectorAll('body *')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.table-scroll'))
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''))`);

  /** Downloads through a link of the page; the file's text. */
  async function download(name: string): Promise<{ text: string; filename: string }> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
    const path = await file.path();
    return { text: readFileSync(path, 'utf8'), filename: file.suggestedFilename() };
  }

  it('starts a job, follows its progress to the end, downloads its results and cancels another, at 390 px', async () => {
    await page.goto(`${running.stack.url}/console/`);
    await page.getByLabel('Email', { exact: true }).last().fill(uniqueEmail('jobs-browser'));
    await page.getByLabel('Password', { exact: true }).last().fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Run a bulk job' }).waitFor();
    // The list loads after the page: its empty note appears once the first page of jobs has come back.
    await page.locator('#jobs-empty').waitFor({ state: 'visible' });

    const form = page.locator('#job-form');
    await form.getByLabel('Lookup').selectOption('product');
    await form.getByLabel('Marketplace').selectOption('US');
    await form.getByLabel('Identifiers are').selectOption('asin');
    await form.getByLabel('Identifiers, one per line').fill(['B0FXTUS001', 'short', '0316769487', 'B0NOTHERE1'].join('\n'));
    await form.getByLabel('Label (optional)').fill('espresso and books');
    await page.getByRole('button', { name: 'Start job' }).click();

    const item = page.locator('li.job').filter({ hasText: 'espresso and books' });
    await item.waitFor();
    // The list refreshes itself while the job runs: the bar fills and the status turns Done.
    await expect.poll(() => item.locator('.status').textContent(), { timeout: 30_000 }).toBe('Done');
    const bar = item.locator('progress');
    expect([await bar.getAttribute('value'), await bar.getAttribute('max')]).toEqual(['4', '4']);
    expect(await item.textContent()).toContain('4 of 4 done · 2 succeeded · 2 failed · 2 units charged');
    expect(await overflowing()).toEqual([]);

    const ndjson = await download('Results (NDJSON) of espresso and books');
    expect(ndjson.filename).toMatch(/^job-[0-9a-f-]{36}\.ndjson$/);
    const lines = ndjson.text.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.index, l.status])).toEqual([[0, 200], [1, 400], [2, 200], [3, 404]]);
    expect(lines[0].data.retailProduct.asin).toBe('B0FXTUS001');
    expect(lines[1].errors[0].path).toEqual(['items', '1', 'params', 'asin']);
    const csv = await download('Results (CSV) of espresso and books');
    const rows = parseCsv<Record<string, string>>(csv.text, { columns: true });
    expect(rows.map((r) => [r.index, r.status, r.asin])).toEqual([['0', '200', 'B0FXTUS001'], ['1', '400', ''], ['2', '200', '0316769487'], ['3', '404', '']]);

    // A second job, cancelled through the dialog: the marketplace blocks its one item (a captcha page),
    // so its chunk waits to be tried again and the job is still running when the cancel comes.
    await form.getByLabel('Identifiers, one per line').fill('B0CAPTCHA1');
    await form.getByLabel('Label (optional)').fill('to cancel');
    await page.getByRole('button', { name: 'Start job' }).click();
    const second = page.locator('li.job').filter({ hasText: 'to cancel' });
    await second.getByRole('button', { name: 'Cancel to cancel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel job' }).click();
    await expect.poll(() => second.locator('.status').textContent(), { timeout: 30_000 }).toBe('Cancelled');
    expect(await second.getByRole('button', { name: 'Cancel to cancel' }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
