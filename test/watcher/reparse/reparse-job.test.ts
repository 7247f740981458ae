/**
 * The reparse job on a real store (PGlite) and a real core (its PageArchiveService over gRPC, the
 * project's product parser): resumed after a failure mid-walk it neither skips nor repeats a page,
 * whether it reads one page at a time or several; it reads only its window; a page no parser can
 * read is counted, not fatal; a cancelled job's run stops writing. The archived pages are
 * the timeline product's page (test/replay/timeline-page.ts) as the archive stores them, and the
 * history points are what an older parser that missed the price would have stored.
 */
import { randomUUID } from 'node:crypto';
import { PageArchiveService } from '@retail/contract';
import type { ArchivedPage } from '@retail/contract/page-archive-handoff';
import { createCoreClient, type CoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReparseProcessor, REPARSE_QUEUE } from '../../../watcher/src/reparse/index.js';
import type { JobRun } from '../../../watcher/src/queue/index.js';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { startCore, type StartedCore } from '../../harness/core.js';
import { timelinePage } from '../../replay/timeline-page.js';
import { HOUR, openTestStore, START } from '../refresh/fixtures.js';
import { archivedStory as storyIn, SELLER } from './archived-story.js';

let store: WatchStore;
let core: StartedCore;
let client: CoreClient;

beforeAll(async () => {
  ({ store } = await openTestStore());
  // No marketplace: re-parsing fetches nothing, it reads the page it is sent.
  core = await startCore();
  client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
}, 60_000);
afterAll(async () => {
  await core?.stop();
  await store?.close();
});

/**
 * The core client, recording the pages sent (in the order the calls start) and failing the
 * `failAt`-th call (the core went away mid-walk); `onCall` runs before each call is answered.
 */
function flakyCore(failAt?: number, onCall?: (call: number) => Promise<void>) {
  const sent: string[] = [];
  let calls = 0;
  const core: Pick<CoreClient, 'unaryCall'> = {
    unaryCall: (async (method: typeof PageArchiveService.method.reparseArchivedPage, request: { identifier?: string; url?: string; body?: Uint8Array }, options) => {
      calls += 1;
      if (calls === failAt) throw new Error('core unreachable');
      sent.push(request.body ? Buffer.from(request.body).toString('base64').slice(-16) : '');
      await onCall?.(calls);
      return client.unaryCall(method, request, options);
    }) as CoreClient['unaryCall'],
  };
  return { core, sent };
}

const runOf = (jobId: string, attempt = 1): JobRun<{ jobId: string }> => ({ id: jobId, data: { jobId }, attempt, maxAttempts: REPARSE_QUEUE.retryDelaysMs.length + 1, dueAt: START });
const archivedStory = (base: number, prices: readonly number[], body?: (asin: string, price: number) => string) => storyIn(store, base, prices, body);
const fingerprint = (page: ArchivedPage) => Buffer.from(page.body).toString('base64').slice(-16);

describe('the reparse job', () => {
  it.each([1, 4])('resumes after a failure at the page it stopped on, %i page(s) read at once: every page applied once, every point corrected once', async (concurrency) => {
    const base = START + (concurrency - 1) * 10 * HOUR;
    const { asin, pages } = await archivedStory(base, [10, 11, 12, 13, 14, 15]);
    const jobId = randomUUID();
    await store.reparseJobs.create({ id: jobId, domain: 'US', kind: 'product', since: new Date(base), until: new Date(base + 6 * HOUR), force: false });
    const processor = (core: Pick<CoreClient, 'unaryCall'>) => createReparseProcessor({ store, core, log: () => undefined, concurrency });

    const first = flakyCore(4);
    await expect(processor(first.core)(runOf(jobId))).rejects.toThrow('core unreachable');
    // The pages before the failed one are applied; reads already under way after it are dropped.
    expect((await store.reparseJobs.get(jobId))).toMatchObject({ state: 'running', counts: { pages: 3, pointsRevised: 3 } });
    expect(first.sent.slice(0, 3)).toEqual(pages.slice(0, 3).map(fingerprint));

    const second = flakyCore();
    await processor(second.core)(runOf(jobId, 2));
    // The resumed run starts at the page that failed: none of the applied ones is sent again.
    expect(second.sent).toEqual(pages.slice(3).map(fingerprint));
    const job = await store.reparseJobs.get(jobId);
    expect(job).toMatchObject({ state: 'done', counts: { pages: 6, reparsed: 6, skipped: 0, unreadable: 0, withoutPoint: 0, pointsRevised: 6 } });
    expect(job?.fields).toEqual({ price: 6 });
    expect((await store.reparseJobs.revisions(jobId)).map((r) => (r.newValue as { value: number }).value)).toEqual([10, 11, 12, 13, 14, 15]);
    const history = await store.snapshots.history({ domain: 'US', asin, from: new Date(base), to: new Date(base + 6 * HOUR) });
    expect(history.map((p) => [p.quality, p.price?.value, p.unknownFields ?? []])).toEqual([10, 11, 12, 13, 14, 15].map((price) => ['revised', price, []]));

    // A re-run of a finished job (a redelivery) does nothing.
    const third = flakyCore();
    await processor(third.core)(runOf(jobId, 1));
    expect(third.sent).toEqual([]);
  });

  it('stops writing when the job is cancelled mid-walk: the pages after the cancel are left as they were', async () => {
    const BASE = START + 200 * HOUR;
    const { asin } = await archivedStory(BASE, [30, 31, 32, 33, 34, 35]);
    const jobId = randomUUID();
    await store.reparseJobs.create({ id: jobId, domain: 'US', kind: 'product', since: new Date(BASE), until: new Date(BASE + 6 * HOUR), force: false });
    // The operator cancels while the fifth page is being read; what was applied by then is what stays.
    let pagesAtCancel = -1;
    const { core } = flakyCore(undefined, async (call) => {
      if (call !== 5) return;
      expect(await store.reparseJobs.cancel(jobId, 'cancelled by the operator')).toBe(true);
      pagesAtCancel = (await store.reparseJobs.get(jobId))!.counts.pages;
    });
    const log: string[] = [];
    await createReparseProcessor({ store, core, log: (line) => log.push(line), concurrency: 2 })(runOf(jobId));
    const job = await store.reparseJobs.get(jobId);
    expect(job).toMatchObject({ state: 'failed', error: 'cancelled by the operator' });
    expect(pagesAtCancel).toBeGreaterThanOrEqual(1);
    expect(pagesAtCancel).toBeLessThan(5);
    expect(job?.counts.pages).toBe(pagesAtCancel);
    expect(await store.reparseJobs.revisions(jobId)).toHaveLength(pagesAtCancel);
    const history = await store.snapshots.history({ domain: 'US', asin, from: new Date(BASE), to: new Date(BASE + 6 * HOUR) });
    expect(history.map((p) => p.quality === 'revised')).toEqual([...Array<boolean>(pagesAtCancel).fill(true), ...Array<boolean>(6 - pagesAtCancel).fill(false)]);
    expect(log.join('\n')).toContain('stopped: the job was cancelled');
  });

  it('reads only its window, and counts a page the current parser cannot read without failing', async () => {
    const BASE = START + 100 * HOUR;
    const { pages } = await archivedStory(BASE, [20, 21, 22], (asin, price) => (price === 21 ? '<html><body><p>We are sorry, an error occurred.</p></body></html>' : timelinePage(asin, { inStock: true, price, ...SELLER })));
    const jobId = randomUUID();
    // From the second page on: the first is before the window.
    await store.reparseJobs.create({ id: jobId, domain: 'US', kind: 'product', since: new Date(BASE + HOUR), until: new Date(BASE + 3 * HOUR), force: false });
    const { core, sent } = flakyCore();
    await createReparseProcessor({ store, core, log: () => undefined })(runOf(jobId));
    expect(sent).toEqual(pages.slice(1).map(fingerprint));
    const audit = await store.reparseJobs.revisions(jobId);
    expect(audit.map((r) => [r.field, r.oldValue, r.oldMark, r.newValue, r.oldParser])).toEqual([['price', null, 'unknown', { value: 22, currency: 'USD' }, 'product-page@1']]);
    expect(await store.reparseJobs.get(jobId)).toMatchObject({ state: 'done', counts: { pages: 2, reparsed: 2, unreadable: 1, pointsRevised: 1 } });
  });
});
