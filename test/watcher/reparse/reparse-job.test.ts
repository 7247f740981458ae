/**
 * The reparse job on a real store (PGlite) and a real core (its PageArchiveService over gRPC, the
 * project's product parser): resumed after a failure mid-walk it neither skips nor repeats a page;
 * it reads only its window; a page no parser can read is counted, not fatal. The archived pages are
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

/** The core client, counting the pages sent and failing the `failAt`-th call (the core went away mid-walk). */
function flakyCore(failAt?: number) {
  const sent: string[] = [];
  let calls = 0;
  const core: Pick<CoreClient, 'unaryCall'> = {
    unaryCall: (async (method: typeof PageArchiveService.method.reparseArchivedPage, request: { identifier?: string; url?: string; body?: Uint8Array }, options) => {
      calls += 1;
      if (calls === failAt) throw new Error('core unreachable');
      const answer = await client.unaryCall(method, request, options);
      sent.push(request.body ? Buffer.from(request.body).toString('base64').slice(-16) : '');
      return answer;
    }) as CoreClient['unaryCall'],
  };
  return { core, sent };
}

const runOf = (jobId: string, attempt = 1): JobRun<{ jobId: string }> => ({ id: jobId, data: { jobId }, attempt, maxAttempts: REPARSE_QUEUE.retryDelaysMs.length + 1, dueAt: START });
const archivedStory = (base: number, prices: readonly number[], body?: (asin: string, price: number) => string) => storyIn(store, base, prices, body);
const fingerprint = (page: ArchivedPage) => Buffer.from(page.body).toString('base64').slice(-16);

describe('the reparse job', () => {
  it('resumes after a failure at the page it stopped on: every page read once, every point corrected once', async () => {
    const { asin, pages } = await archivedStory(START, [10, 11, 12, 13, 14, 15]);
    const jobId = randomUUID();
    await store.reparseJobs.create({ id: jobId, domain: 'US', kind: 'product', since: new Date(START), until: new Date(START + 6 * HOUR), force: false });

    const first = flakyCore(4);
    await expect(createReparseProcessor({ store, core: first.core, log: () => undefined })(runOf(jobId))).rejects.toThrow('core unreachable');
    expect((await store.reparseJobs.get(jobId))).toMatchObject({ state: 'running', counts: { pages: 3, pointsRevised: 3 } });

    const second = flakyCore();
    await createReparseProcessor({ store, core: second.core, log: () => undefined })(runOf(jobId, 2));
    expect([...first.sent, ...second.sent]).toEqual(pages.map(fingerprint));
    const job = await store.reparseJobs.get(jobId);
    expect(job).toMatchObject({ state: 'done', counts: { pages: 6, reparsed: 6, skipped: 0, unreadable: 0, withoutPoint: 0, pointsRevised: 6 } });
    expect(job?.fields).toEqual({ price: 6 });
    const history = await store.snapshots.history({ domain: 'US', asin, from: new Date(START), to: new Date(START + 6 * HOUR) });
    expect(history.map((p) => [p.quality, p.price?.value, p.unknownFields ?? []])).toEqual([10, 11, 12, 13, 14, 15].map((price) => ['revised', price, []]));

    // A re-run of a finished job (a redelivery) does nothing.
    const third = flakyCore();
    await createReparseProcessor({ store, core: third.core, log: () => undefined })(runOf(jobId, 1));
    expect(third.sent).toEqual([]);
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
