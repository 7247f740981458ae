import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplayServer, type ReplayServer } from './server.js';

// A tiny corpus written by the test itself, exercising every part of the matching rule.
const dir = mkdtempSync(join(tmpdir(), 'replay-'));
const page = (name: string) => `<html><body>${name}</body></html>`;
const entries = [
  { id: 'p', operation: 'product', domain: 'DE', url: 'https://www.amazon.de/dp/B000000001', aliases: ['https://www.amazon.de/gp/product/B000000001'], status: 200, page: 'pages/p.html' },
  { id: 's1', operation: 'search', domain: 'US', url: 'https://www.amazon.com/s?k=tea', status: 200, page: 'pages/s1.html' },
  { id: 's2', operation: 'search', domain: 'US', url: 'https://www.amazon.com/s?k=tea&page=2', status: 200, page: 'pages/s2.html' },
  { id: 'b', operation: 'product(blocked)', domain: 'US', url: 'https://www.amazon.com/dp/B0BLOCK001', status: 503, page: 'pages/b.html' },
];
mkdirSync(join(dir, 'pages'));
for (const e of entries) writeFileSync(join(dir, e.page), page(e.id));
writeFileSync(join(dir, 'index.json'), JSON.stringify(entries));

let server: ReplayServer;
beforeAll(async () => {
  server = await createReplayServer({
    corpusDirs: [dir],
    faults: (req) => (req.query.get('fault') === '503' ? { status: 503, body: 'injected' } : undefined),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(host: string, pathAndQuery: string) {
  const res = await fetch(server.origin + pathAndQuery, { headers: { 'x-forwarded-host': host } });
  return { status: res.status, body: await res.text() };
}

describe('replay server matching', () => {
  it('matches host without www., path with or without trailing slash, and aliases', async () => {
    expect(await get('www.amazon.de', '/dp/B000000001')).toMatchObject({ status: 200, body: page('p') });
    expect((await get('amazon.de', '/dp/B000000001/')).body).toBe(page('p'));
    expect((await get('www.amazon.de', '/gp/product/B000000001')).body).toBe(page('p'));
  });

  it('does not answer another marketplace host for the same path', async () => {
    const res = await get('www.amazon.fr', '/dp/B000000001');
    expect(res.status).toBe(404);
    expect(res.body).toContain('Dogs of Amazon');
  });

  it('matches query parameters as a subset and prefers the entry naming the most', async () => {
    expect((await get('www.amazon.com', '/s?k=tea&ref=nb')).body).toBe(page('s1'));
    expect((await get('www.amazon.com', '/s?ref=x&page=2&k=tea')).body).toBe(page('s2'));
    expect((await get('www.amazon.com', '/s?k=coffee')).status).toBe(404);
  });

  it("answers with the entry's recorded status", async () => {
    expect(await get('www.amazon.com', '/dp/B0BLOCK001')).toMatchObject({ status: 503, body: page('b') });
  });

  it('lets the fault seam replace a response and records every request', async () => {
    const before = server.requests.length;
    expect(await get('www.amazon.de', '/dp/B000000001?fault=503')).toEqual({ status: 503, body: 'injected' });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)?.entry?.id).toBe('p');
  });
});
