import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import express from 'express';
import { PAGE_CONTENT_SECURITY_POLICY } from '@retail/gateway-shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { DemoCatalogue } from './model.js';
import { createDemoCatalogueRouter } from './router.js';
import { DEMO_CATALOGUE_JSON_PATH, DEMO_CATALOGUE_PATH } from './paths.js';

const CATALOGUE: DemoCatalogue = {
  marketplaces: ['US', 'PL'],
  entries: [{ domain: 'PL', operation: 'GetProduct', operationId: 'get_RetailProduct', path: '/api/retail/product', query: { asin: 'B0FXPLP001', domain: 'PL' }, source: 'project fixture', recording: 'r1' }],
  errors: [],
  sources: ['fixtures'],
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(catalogue: DemoCatalogue | undefined): Promise<string> {
  server = await new Promise<Server>((resolve) => {
    const s = express().use(createDemoCatalogueRouter(catalogue)).listen(0, '127.0.0.1', () => resolve(s));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the demo catalogue routes', () => {
  it('serve the catalogue as JSON with links to the address the client used, and as a page', async () => {
    const base = await serve(CATALOGUE);
    const json = (await (await fetch(`${base}${DEMO_CATALOGUE_JSON_PATH}`)).json()) as { counts: unknown; entries: { url: string; curl: string; identifier: string }[] };
    expect(json.counts).toEqual({ US: {}, PL: { GetProduct: 1 } });
    expect(json.entries[0]).toMatchObject({ identifier: 'asin=B0FXPLP001', url: `${base}/api/retail/product?asin=B0FXPLP001&domain=PL` });
    expect(json.entries[0]!.curl).toBe(`curl -s -H "API-KEY: $KEY" '${base}/api/retail/product?asin=B0FXPLP001&domain=PL'`);
    const page = await fetch(`${base}${DEMO_CATALOGUE_PATH}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CONTENT_SECURITY_POLICY);
    const html = await page.text();
    expect(html).toContain('Nothing is recorded for this marketplace.');
    // Its stylesheets and script come from this origin, next to it.
    for (const asset of html.matchAll(/(?:href|src)="(\/demo\/assets\/[^"]+)"/g)) expect((await fetch(`${base}${asset[1]}`)).status, asset[1]).toBe(200);
    expect(html.match(/\/demo\/assets\//g)).toHaveLength(3);
  });

  it('outside demo mode say there is no catalogue instead of a bare 404', async () => {
    const base = await serve(undefined);
    const json = await fetch(`${base}${DEMO_CATALOGUE_JSON_PATH}`);
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ success: false, errors: [{ code: 404, message: expect.stringMatching(/not in demo mode.*npm run demo/) }] });
    const page = await fetch(`${base}${DEMO_CATALOGUE_PATH}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toMatch(/No demo catalogue.*not in demo mode/s);
  });

  it('never echo a forged Host header into links', async () => {
    const base = await serve(CATALOGUE);
    const { port } = new URL(base);
    const response = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: DEMO_CATALOGUE_JSON_PATH, headers: { host: 'evil"><script>' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    expect((JSON.parse(response) as { entries: { url: string }[] }).entries[0]!.url).toBe('/api/retail/product?asin=B0FXPLP001&domain=PL');
  });
});
