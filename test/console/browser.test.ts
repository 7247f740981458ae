/**
 * The console in a real browser (Debian chromium via playwright-core): sign up, create a labelled
 * key and see it once, reload and see only its prefix, use it in a metered call through the
 * library (admit + settle, as a gateway does), see last-used and the balance update, revoke it
 * through the confirmation dialog, and see the library refuse it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Metering } from '@retail/metering/api';
import { chromiumMissing, launchChromium, type LaunchedBrowser } from '../harness/browser.js';
import { createTestMetering } from './metering.js';
import { GOOD_PASSWORD, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

const missing = chromiumMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)('the console in chromium', () => {
  let metering: Metering;
  let server: RunningConsole;
  let browser: LaunchedBrowser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    metering = await createTestMetering();
    server = await startConsole({ metering, signupMode: 'open' });
    browser = await launchChromium();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = await browser.context.newPage();
    // CSP violations and script errors show up here: the page must produce none.
    page.on('console', (message) => {
      // The deliberate weak-password attempt logs its 400; anything else (a 404 asset, a CSP
      // violation, a script error) is a problem.
      if (message.type() === 'error' && !/status of 400 \(Bad Request\)/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await metering?.close();
  });

  const keyRow = (label: string) => page.getByRole('row').filter({ hasText: label });

  it('runs the whole key lifecycle', async () => {
    await page.goto(`${server.base}`);
    expect(page.url()).toBe(`${server.base}/`);

    // Sign up with the labelled form; a weak password is refused next to its field first.
    const email = uniqueEmail('browser');
    await page.getByLabel('Email', { exact: true }).last().fill(email);
    const password = page.getByLabel('Password', { exact: true }).last();
    await password.fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('#signup-password-error').textContent()).toMatch(/at least 10 characters/);
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate('document.activeElement.id')).toBe('signup-password');
    await password.fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await expect.poll(() => page.locator('#user-email').textContent()).toBe(email);
    expect(await page.locator('#balance').textContent()).toBe('100');
    expect(await page.getByText('No keys yet').isVisible()).toBe(true);

    // Create a labelled key: the full value is shown once, in the live region, with a Copy button.
    // Keyboard only: type the label and press Enter.
    const keyLabel = page.locator('#create-key-form').getByLabel('Label (optional)');
    await keyLabel.fill('ci pipeline');
    await keyLabel.press('Enter');
    const keyInput = page.getByLabel(/New API key/);
    await keyInput.waitFor();
    const key = await keyInput.inputValue();
    expect(key).toMatch(/^rk_[a-z0-9]{12}_[0-9A-Za-z]{38}$/);
    expect(await page.locator('#new-key-live').getAttribute('aria-live')).toBe('polite');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    // Runs in the page, where navigator exists (this file is typed for Node).
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

    const row = keyRow('ci pipeline');
    await row.waitFor();
    const prefix = (await row.locator('code').textContent())!.replace('…', '');
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(key.length);
    expect(await row.getByRole('cell', { name: 'Never' }).count()).toBe(1);

    // Reload: the key is gone for good; only its prefix remains.
    await page.reload();
    await keyRow('ci pipeline').waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('#new-key').isHidden()).toBe(true);
    expect(await keyRow('ci pipeline').locator('code').textContent()).toBe(`${prefix}…`);

    // A metered call with the key, as a gateway makes it.
    const admitted = await metering.meter.admit({ key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'browser-1' });
    expect(admitted.ok).toBe(true);
    if (!admitted.ok) return;
    expect(await metering.meter.settle(admitted.hold, 1)).toMatchObject({ charged: 1, remaining: 99 });

    await page.reload();
    const usedRow = keyRow('ci pipeline');
    await usedRow.waitFor();
    const lastUsed = usedRow.locator('td').nth(3).locator('time');
    await lastUsed.waitFor();
    const lastUsedAt = Date.parse((await lastUsed.getAttribute('datetime'))!);
    expect(Math.abs(Date.now() - lastUsedAt)).toBeLessThan(5 * 60_000);
    expect(await page.locator('#balance').textContent()).toBe('99');
    // Usage names the call as it was made (the REST route and the interface), not the RPC name.
    const usageRow = page.locator('#usage-body tr').filter({ hasText: 'GET /api/retail/product' });
    expect(await usageRow.locator('td').allTextContents()).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), 'GET /api/retail/product', 'REST', '1']);
    expect(await page.locator('#usage-body').textContent()).not.toContain('GetProduct');
    expect(await page.locator('#no-units').isHidden()).toBe(true);

    const shotDir = mkdtempSync(join(tmpdir(), 'console-screenshot-'));
    const shot = join(shotDir, 'console.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`console screenshot: ${shot}`);

    // Revoke through the confirmation dialog. With the keyboard: Enter opens it, Escape cancels and
    // gives focus back to the Revoke button; the key stays active.
    const revokeButton = usedRow.getByRole('button', { name: /^Revoke ci pipeline/ });
    await revokeButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toMatch(/^Revoke ci pipeline/);
    expect(await usedRow.getByText('Active').count()).toBe(1);
    await usedRow.getByRole('button', { name: /^Revoke ci pipeline/ }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await keyRow('ci pipeline').getByText(/^Revoked/).waitFor();
    await expect.poll(() => page.locator('#notice').textContent()).toContain('revoked');

    const refused = await metering.meter.admit({ key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'browser-2' });
    expect(refused.ok).toBe(false);
    if (!refused.ok && !refused.shape) expect(refused.denial.httpStatus).toBe(401);

    // Sign out, sign back in: the page returns to the same account.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.locator('#signin-email').fill(email);
    await page.locator('#signin-password').fill(GOOD_PASSWORD);
    await page.locator('#signin-password').press('Enter');
    await keyRow('ci pipeline').getByText(/^Revoked/).waitFor();

    expect(problems).toEqual([]);
  });

  /** Elements that stick out past the viewport's right edge (a layout break at this width); none expected. */
  const overflowing = () =>
    page.evaluate(`[...document.querySelectorAll('body *')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.table-scroll'))
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''))`);

  it('at 390 px: usage by public name and interface in stacked rows, the out-of-units panel, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.base}/`);
    if (await page.getByRole('button', { name: 'Sign out' }).isVisible()) await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email', { exact: true }).last().fill(uniqueEmail('narrow'));
    await page.getByLabel('Password', { exact: true }).last().fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    const keyLabel = page.locator('#create-key-form').getByLabel('Label (optional)');
    await keyLabel.fill('a key with a rather long label for a narrow screen');
    await keyLabel.press('Enter');
    // The field is in the page before the key is: wait for the value, not the element.
    const keyInput = page.getByLabel(/New API key/);
    await expect.poll(() => keyInput.inputValue()).toMatch(/^rk_/);
    const key = await keyInput.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // One call per interface, then the rest of the 100 units in one GraphQL request of 97 fields.
    const charge = async (iface: 'rest' | 'graphql' | 'mcp', operations: string[]) => {
      const admitted = await metering.meter.admit({ key, interface: iface, operations, shapeValid: true, requestId: `narrow-${iface}-${operations.length}` });
      if (!admitted.ok) throw new Error(`admit refused: ${JSON.stringify(admitted)}`);
      await metering.meter.settle(admitted.hold, operations.length);
    };
    await charge('rest', ['GetProduct']);
    await charge('mcp', ['GetProduct']);
    await charge('graphql', ['GetProductVariants']);
    await charge('graphql', Array.from({ length: 97 }, () => 'GetProduct'));
    await page.reload();

    // The panel: what stops, the admin CLI line with this account's id (copyable), watches and jobs.
    const panel = page.getByRole('region', { name: 'You are out of units' });
    await panel.waitFor();
    expect(await page.locator('#balance').textContent()).toBe('0');
    const accountId = (await page.locator('#no-units-account').textContent())!;
    expect((await metering.admin.summary(accountId)).balance).toBe(0);
    expect(await page.locator('#no-units-command').inputValue()).toBe(`npm run admin -- account grant ${accountId} 1000`);
    await panel.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-command-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`npm run admin -- account grant ${accountId} 1000`);
    for (const words of ['402', 'WATCH_PAUSED', 'WATCH_RESUMED', 'Bulk jobs']) expect(await panel.textContent()).toContain(words);
    // Zero is not a debt: the debt line stays hidden.
    expect(await page.locator('#debt-note').isHidden()).toBe(true);

    // Usage rows, stacked: each cell is one line, labelled with its column's name.
    const usage = async () =>
      page.locator('#usage-body tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => `${td.dataset.label}: ${td.textContent}`).slice(1)));
    expect((await usage()).sort()).toEqual([
      ['Call: GET /api/retail/product', 'Interface: REST', 'Calls: 1'],
      ['Call: retailProduct', 'Interface: GraphQL', 'Calls: 97'],
      ['Call: retailProduct.variants', 'Interface: GraphQL', 'Calls: 1'],
      ['Call: retail_product', 'Interface: MCP tool', 'Calls: 1'],
    ]);
    expect(await page.evaluate('getComputedStyle(document.querySelector("#usage-body td")).display')).toBe('flex');
    expect(await page.getByRole('row').filter({ hasText: 'retail_product' }).count()).toBe(1);

    // Nothing sticks out: no element past the right edge, no horizontal page scroll.
    expect(await overflowing()).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const shot = join(mkdtempSync(join(tmpdir(), 'console-screenshot-')), 'console-390-out-of-units.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`console screenshot at 390 px: ${shot}`);

    // Units back: the panel goes.
    await metering.admin.grantUnits(accountId, 5);
    await page.reload();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await expect.poll(() => page.locator('#balance').textContent()).toBe('5');
    expect(await page.locator('#no-units').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('shows a balance below zero as the debt it is, in the out-of-units card', async () => {
    // The server's answer with the balance a late debit leaves (made for real on npm start in
    // test/app/negative-balance.test.ts); here only what the page makes of it.
    await page.route('**/api/account', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { balance: number } };
      await route.fulfill({ response, json: { ...body, data: { ...body.data, balance: -1234 } } });
    });
    try {
      await page.reload();
      const panel = page.getByRole('region', { name: 'You are out of units' });
      await panel.waitFor();
      expect(await page.locator('#balance').textContent()).toBe('-1,234');
      expect(await page.locator('#debt-note').isVisible()).toBe(true);
      expect(await page.locator('#debt-note').textContent()).toMatch(/below zero: 1,234 units of calls made before a recovery/);
      expect(problems).toEqual([]);
    } finally {
      await page.unroute('**/api/account');
    }
  });
});
