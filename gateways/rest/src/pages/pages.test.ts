/**
 * The pages over real HTTP: each answers with the self-only CSP (the API reference adds a style nonce),
 * loads nothing but files served here (all of which answer); the documentation site is served from its
 * built files only, under a CSP that allows exactly the inline scripts those files hold.
 * (test/app/docs-site.test.ts drives the real built site in chromium.)
 */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnbuiltDocsRoutes, DOCS_BUILD_COMMAND } from './docs.js';
import { apiReferenceContentSecurityPolicy, createPages } from './index.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '@retail/gateway-shared';

let server: Server;
let base: string;
const docs = mkdtempSync(join(tmpdir(), 'pages-docs-'));
/** A built site as VitePress lays it out: pages with an inline script in their head, hashed assets, a 404 page. */
const INLINE_SCRIPT = 'document.documentElement.classList.add(`dark`)';
const sitePage = (title: string) => `<!doctype html><html><head><title>${title}</title><script type="module" src="/docs/assets/app.abc123.js"></script><script id="check">${INLINE_SCRIPT}</script></head><body><p style="--vp-vh:0px">${title}</p></body></html>`;

beforeAll(async () => {
  mkdirSync(join(docs, 'assets'));
  writeFileSync(join(docs, 'index.html'), sitePage('Retail Data API'));
  writeFileSync(join(docs, 'contract.html'), sitePage('The wire contract'));
  writeFileSync(join(docs, '404.html'), sitePage('Not found'));
  writeFileSync(join(docs, 'assets', 'app.abc123.js'), 'export {};');
  writeFileSync(join(docs, '.secret'), 'a dotfile');
  const app = express();
  app.use(createPages({ docsDirectory: docs, extraLinks: [{ href: '/demo', title: 'Demo catalogue', description: 'What <the demo> recorded.' }] }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.close();
  rmSync(docs, { recursive: true, force: true });
});

/** Every src/href of a page that is not a link to another page. */
const loadedAssets = (html: string) =>
  [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => url !== 'data:,');

describe('the pages', () => {
  it.each(['/', '/api/docs', '/api/docs/'])('%s answers HTML under the self-only CSP (the API reference: plus its style nonce), and every file it loads is served here', async (path) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    // The API reference's own policy: the pages' one plus its response's style nonce (api-reference.ts).
    const nonce = /<meta property="csp-nonce" content="([^"]+)">/.exec(html)?.[1];
    expect(res.headers.get('content-security-policy')).toBe(path.startsWith('/api/docs') ? apiReferenceContentSecurityPolicy(nonce!) : PAGE_CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(html).not.toMatch(/<(script|style)>|\sstyle="/); // nothing inline for the CSP to refuse
    for (const asset of loadedAssets(html)) {
      expect(asset.startsWith('/'), asset).toBe(true);
      const file = await fetch(`${base}${asset}`);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
    }
    // The shared theme (the colours the console uses too) comes before the page's own stylesheet.
    const styles = loadedAssets(html).filter((a) => a.endsWith('.css'));
    expect(styles.indexOf('/api/docs/theme.css')).toBeGreaterThan(-1);
    expect(styles.indexOf('/api/docs/theme.css')).toBeLessThan(styles.indexOf('/api/docs/site.css'));
  });

  it('gives the API reference a fresh style nonce each time, and nothing else inline', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/api/docs/`);
      const policy = res.headers.get('content-security-policy')!;
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
      expect(await res.text()).toContain(`<meta property="csp-nonce" content="${nonce}">`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
    const policy = apiReferenceContentSecurityPolicy('n0nce');
    // Only styles change: scripts, connections, images and fonts stay this origin's.
    expect(policy.replace(/style-src 'self' 'nonce-n0nce'; style-src-attr 'unsafe-inline'/, "style-src 'self'")).toBe(PAGE_CONTENT_SECURITY_POLICY);
    expect(policy).not.toMatch(/unsafe-eval|script-src [^;]*unsafe/);
    // The start-up script runs before the bundle (it nonces the bundle's <style> elements).
    const html = await (await fetch(`${base}/api/docs/`)).text();
    expect(loadedAssets(html).filter((a) => a.endsWith('.js'))).toEqual(['/api/docs/api-reference.js', '/api/docs/scalar-standalone.js']);
  });

  it('sends the API reference bundle compressed to a browser that accepts it', async () => {
    const res = await fetch(`${base}/api/docs/scalar-standalone.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toContain('createApiReference'); // fetch undoes the gzip
  });

  it('links the pages, the composition’s extra link, and escapes what it prints', async () => {
    const html = await (await fetch(`${base}/`)).text();
    const hrefs = [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['/api/docs/', '/api/graphql', '/console/', '/demo', '/docs/', '/api/openapi.json', '/healthz', '/readyz']);
    expect(html).toContain('What &#60;the demo&#62; recorded.');
  });

  it('serves the built documentation site under a CSP that allows its inline scripts by hash and nothing else inline', async () => {
    const res = await fetch(`${base}/docs/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Retail Data API</title>');
    const policy = res.headers.get('content-security-policy')!;
    const hash = createHash('sha256').update(INLINE_SCRIPT).digest('base64');
    expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy.match(/'sha256-/g)).toHaveLength(2); // that script and the theme's one <style>
    // Style attributes only; <style> and stylesheets stay self-only, and the rest is the pages' policy.
    expect(policy).toContain("style-src-attr 'unsafe-inline'");
    expect(policy).toMatch(/style-src 'self' 'sha256-[\w+/=]+';/);
    for (const directive of PAGE_CONTENT_SECURITY_POLICY.split('; ').filter((d) => !/^(script|style)-src /.test(d))) expect(policy).toContain(directive);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const asset = await fetch(`${base}/docs/assets/app.abc123.js`);
    expect([asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
    const page = await fetch(`${base}/docs/contract.html`);
    expect([page.status, page.headers.get('cache-control')]).toEqual([200, 'no-cache']);
  });

  it('leads /docs to /docs/ and a repository link (name.md) to its page, and answers the site\'s 404 page for anything else', async () => {
    const redirect = await fetch(`${base}/docs`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([308, '/docs/']);
    const moved = await fetch(`${base}/docs/contract.md`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/docs/contract.html']);
    for (const path of ['/docs/missing.html', '/docs/.secret', '/docs/..%2Fpackage.json', '/docs/%2E%2E%2Fcontract.html', '/docs/assets/', '/api/docs/package.json']) {
      const answer = await fetch(`${base}${path}`);
      expect(answer.status, path).toBe(404);
      if (path.startsWith('/docs/')) expect(await answer.text(), path).toContain('<title>Not found</title>');
    }
  });

  it('says how to build the site where the Markdown is there but the site was not built', async () => {
    const app = express();
    app.use('/docs', createUnbuiltDocsRoutes());
    const bare = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => bare.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/docs/quick-start.html`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain(`<code>${DOCS_BUILD_COMMAND}</code>`);
    } finally {
      bare.close();
    }
  });

  it('answers a browser’s favicon request with no content', async () => {
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(204);
  });

  it('serves no documentation link or page when there is none', async () => {
    const app = express();
    app.use(createPages({ docsDirectory: null }));
    const bare = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => bare.once('listening', resolve));
    const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${url}/`)).text()).not.toContain('href="/docs/"');
      expect((await fetch(`${url}/docs/`)).status).toBe(404);
    } finally {
      bare.close();
    }
  });
});
