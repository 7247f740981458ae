/** `npm run admin -- pages` on the one-process default's PGlite directory. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runPagesCommand } from '../../../watcher/src/admin/pages-command.js';
import { createPgliteDatabase, openWatchStore } from '../../../watcher/src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pages-command-'));
const env = { WATCHER_DATA_DIR: join(dir, 'db') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function seed() {
  const store = await openWatchStore(await createPgliteDatabase(env.WATCHER_DATA_DIR));
  const page = (at: string, title: string) => ({
    id: crypto.randomUUID(), url: 'https://www.amazon.com/dp/B0PAGECMD1', domain: 'US', kind: 'product', identifier: 'B0PAGECMD1', status: 200,
    fetchedAt: new Date(at), parser: 'product@3', contentType: 'text/html', encoding: 'gzip' as const,
    body: gzipSync(`<html>${title}</html>`), parsed: JSON.stringify({ product: { title } }), reason: 'watch-refresh' as const, missing: [],
  });
  await store.pages.record(page('2026-11-28T09:00:00Z', 'nine'));
  await store.pages.record(page('2026-11-28T11:00:00Z', 'eleven'));
  await store.close();
}

function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return runPagesCommand(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

describe('admin pages', () => {
  it('prints the page fetched last before the time asked, with what the parser read, and writes its HTML', async () => {
    await seed();
    const html = join(dir, 'page.html');
    const result = await run(['--domain', 'us', '--kind', 'product', '--asin', 'b0pagecmd1', '--at', '2026-11-28T10:00Z', '--html', html]);
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.out);
    expect(shown).toMatchObject({ fetchedAt: '2026-11-28T09:00:00.000Z', parser: 'product@3', reason: 'watch-refresh', status: 200, parsed: { product: { title: 'nine' } } });
    expect(shown.body).toBeUndefined();
    expect(readFileSync(html, 'utf8')).toBe('<html>nine</html>');
  });

  it('re-parsing can walk the pages of a kind since a time, oldest first, in batches', async () => {
    const store = await openWatchStore(await createPgliteDatabase(env.WATCHER_DATA_DIR));
    try {
      const first = await store.pages.listSince({ domain: 'US', kind: 'product', since: new Date('2026-11-28T00:00:00Z'), limit: 1 });
      const next = await store.pages.listSince({ domain: 'US', kind: 'product', since: new Date('2026-11-28T00:00:00Z'), after: first[0]!, limit: 1 });
      const rest = await store.pages.listSince({ domain: 'US', kind: 'product', since: new Date('2026-11-28T00:00:00Z'), after: next[0]!, limit: 1 });
      expect([...first, ...next, ...rest].map((p) => p.fetchedAt.toISOString())).toEqual(['2026-11-28T09:00:00.000Z', '2026-11-28T11:00:00.000Z']);
      expect(await store.pages.listSince({ domain: 'US', kind: 'product', since: new Date('2026-11-28T10:00:00Z'), limit: 10 })).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('answers 1 when nothing was archived for the product, and 2 with usage for a bad time', async () => {
    expect((await run(['--domain', 'US', '--kind', 'product', '--asin', 'B0NOTHERE1'])).code).toBe(1);
    const bad = await run(['--domain', 'US', '--kind', 'product', '--asin', 'B0PAGECMD1', '--at', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--at must be a time');
  });
});
