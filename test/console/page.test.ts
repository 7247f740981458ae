/**
 * The page as served: redirects, security headers, no inline script or style (the CSP forbids them),
 * labelled form fields, and a bad-input sweep of the JSON API that must never give a 5xx.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Metering } from '@retail/metering/api';
import { createTestMetering } from './metering.js';
import { ConsoleClient, startConsole, uniqueEmail, type RunningConsole } from './harness.js';

let metering: Metering;
let server: RunningConsole;

beforeAll(async () => {
  metering = await createTestMetering();
  server = await startConsole({ metering });
});
afterAll(async () => {
  await server.close();
  await metering.close();
});

describe('the page', () => {
  it('redirects /console to /console/ and serves the HTML with a strict CSP and no framing', async () => {
    const redirect = await fetch(server.base, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/console/');

    const page = await fetch(`${server.base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');

    const script = await fetch(`${server.base}/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${server.base}/console.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    // The shared theme (gateways/shared) holds the colours; the page loads it before its own stylesheet.
    const theme = await fetch(`${server.base}/theme.css`);
    expect(theme.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await theme.text()).toContain('--accent:');
  });

  it('has no inline scripts, styles or handlers, and every input has a label', async () => {
    const document = parseDocument(await (await fetch(`${server.base}/`)).text());
    const elements = DomUtils.findAll(() => true, document.children);
    for (const script of elements.filter((e) => e.name === 'script')) {
      expect(script.attribs.src).toBeTruthy();
      expect(DomUtils.textContent(script).trim()).toBe('');
    }
    expect(elements.filter((e) => e.name === 'style')).toEqual([]);
    for (const element of elements) {
      expect(Object.keys(element.attribs).filter((name) => name.startsWith('on') || name === 'style')).toEqual([]);
    }
    const labelled = new Set(elements.filter((e) => e.name === 'label').map((e) => e.attribs.for));
    const inputs = elements.filter((e) => e.name === 'input');
    expect(inputs.length).toBeGreaterThanOrEqual(6);
    for (const input of inputs) expect(labelled, `input #${input.attribs.id}`).toContain(input.attribs.id);
    // The one-time key is announced to screen readers.
    const live = elements.find((e) => e.attribs.id === 'new-key-live');
    expect(live?.attribs['aria-live']).toBe('polite');
    expect(elements.find((e) => e.name === 'html')?.attribs.lang).toBe('en');
  });

  it('ships only the page files (no source maps or TypeScript in the public directory)', () => {
    const files = readdirSync(new URL('../../gateways/console/src/public/', import.meta.url)).sort();
    expect(files).toEqual(['console.css', 'console.js', 'index.html', 'jobs.js', 'one-time-secret.js', 'operator.js', 'page.js', 'usage-chart.js', 'watch-chart.js', 'watch-detail.js', 'watch-form.js', 'watch-text.js', 'watches.js']);
  });

  it('serves the chart library from its own origin, and nothing else of node_modules', async () => {
    const script = await fetch(`${server.base}/vendor/uplot.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await script.text()).toMatch(/export \{ uPlot as default \}|export default uPlot/);
    const styles = await fetch(`${server.base}/vendor/uplot.css`);
    expect(styles.headers.get('content-type')).toMatch(/^text\/css/);
    for (const path of ['vendor/package.json', 'vendor/..%2Fpackage.json', 'vendor/uPlot.esm.js', 'vendor/hasOwnProperty']) {
      expect((await fetch(`${server.base}/${path}`)).status, path).toBe(404);
    }
  });

  it('answers unknown API paths with the envelope', async () => {
    const response = await fetch(`${server.base}/api/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, errors: [{ code: 404, message: 'Not found' }] });
  });
});

describe('bad input', () => {
  it('never answers 5xx to arbitrary JSON on any route', async () => {
    const client = new ConsoleClient(server.base);
    await client.signUp(uniqueEmail());
    const routes = [
      ['POST', 'keys'],
      ['POST', 'signin'],
      ['POST', 'signup'],
    ] as const;
    const outsider = new ConsoleClient(server.base);
    await outsider.get('session');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue(), async ([method, path], body) => {
        // Sign-in and sign-up from a separate anonymous session, so a lucky body cannot sign `client` out.
        const who = path === 'keys' ? client : outsider;
        const response = await who.request(method, path, undefined, { rawBody: JSON.stringify(body) });
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(response.body.success).toBe(false);
      }),
      { numRuns: 60 },
    );
    for (const keyId of ['%00', '%E0%A4%A', 'a'.repeat(300), '..%2F..%2F']) {
      const response = await client.request('DELETE', `keys/${keyId}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });
});
