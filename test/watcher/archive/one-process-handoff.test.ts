/**
 * The page archive in the one-process default (`npm start`): the core and the watcher share the
 * in-memory stream, the watcher records into PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryPageArchiveStream } from '@retail/contract/page-archive-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withArchiveHint } from '../../../core/src/archive/archive-hint.js';
import { createPageArchiveTap } from '../../../core/src/archive/page-archive-tap.js';
import { createParsedPageSource } from '../../../core/src/cache/parsed-pages.js';
import { page, request, scriptedFetcher } from '../../../core/test/page-doubles.js';
import { createPageArchiveRecorder } from '../../../watcher/src/archive/page-archive-recorder.js';
import { createPgliteDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'archive-one-process-'));
let store: WatchStore;
beforeAll(async () => {
  store = await openWatchStore(await createPgliteDatabase(join(dir, 'db')));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const row0 = () => ({
  id: '', url: 'https://www.amazon.com/dp/B0BADPAGE1', domain: 'US', kind: 'product', identifier: 'B0BADPAGE1', status: 200, fetchedAt: new Date(),
  parser: 'product@1', contentType: 'text/html', encoding: 'gzip' as const, body: new Uint8Array([1]), reason: 'sample' as const, missing: [],
});

describe('the page archive in one process', () => {
  it('records a watch refresh page, and a restarted recorder records what the stopped one held once', async () => {
    const stream = createMemoryPageArchiveStream();
    const source = createParsedPageSource({ fetcher: scriptedFetcher([() => ({ ...page(), html: '<html>kettle</html>' })]), archive: createPageArchiveTap({ outbox: stream.outbox, sampleRate: 0 }) });
    for (const asin of ['B0ONEPROC1', 'B0ONEPROC2']) {
      await withArchiveHint('watch-refresh', () => source.parsed(request(`/dp/${asin}`), { id: 'product', version: 1 }, () => ({ product: { title: 'Kettle', isInStock: false } })));
    }
    for (let i = 0; i < 200 && stream.size() < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    // The first recorder takes both, records one, and stops before acknowledging.
    const first = stream.inbox();
    const taken = await first.read({ pending: false, count: 10, blockMs: 0 });
    expect(taken).toHaveLength(2);
    await store.pages.record(taken[0]!.page!);
    await first.close();
    const second = createPageArchiveRecorder({ inbox: stream.inbox(), pages: store.pages, log: () => undefined, blockMs: 0 });
    expect(await second.drainOnce(true)).toEqual({ read: 2, recorded: 1 });
    expect(stream.size()).toBe(0);
    expect(await store.pages.count()).toBe(2);
    const row = await store.pages.find({ domain: 'US', kind: 'product', identifier: 'B0ONEPROC2', at: new Date() });
    expect(row).toMatchObject({ reason: 'watch-refresh', parsed: { product: { title: 'Kettle', isInStock: false } } });
  });

  it('a page the database refuses is logged and passed over, and the pages after it are recorded', async () => {
    const stream = createMemoryPageArchiveStream();
    const good = { ...row0(), id: crypto.randomUUID(), identifier: 'B0AFTERBAD' };
    await stream.outbox.add({ ...row0(), id: 'not-a-uuid' });
    await stream.outbox.add(good);
    const lines: string[] = [];
    const recorder = createPageArchiveRecorder({ inbox: stream.inbox(), pages: store.pages, log: (line) => lines.push(line), blockMs: 0 });
    expect(await recorder.drainOnce(false)).toEqual({ read: 2, recorded: 1 });
    expect(lines.join('\n')).toMatch(/page not-a-uuid .* refused by the database and dropped/);
    expect(stream.size()).toBe(0);
  });
});

describe('the recorder loop', () => {
  it('records pages as they come until stopped, and stops while waiting for one', async () => {
    const stream = createMemoryPageArchiveStream();
    const recorded: string[] = [];
    const recorder = createPageArchiveRecorder({ inbox: stream.inbox(), pages: { record: async (p) => (recorded.push(p.identifier), true) }, log: () => undefined, blockMs: 1_000 });
    recorder.start();
    for (const identifier of ['B0LOOP0001', 'B0LOOP0002']) await stream.outbox.add({ ...row0(), id: crypto.randomUUID(), identifier });
    for (let i = 0; i < 50 && recorded.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(recorded).toEqual(['B0LOOP0001', 'B0LOOP0002']);
    const stopping = performance.now();
    await recorder.stop();
    expect(performance.now() - stopping).toBeLessThan(500);
    expect(stream.size()).toBe(0);
  });
});
