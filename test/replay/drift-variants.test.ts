/**
 * The replay server's newer layout drifts (layout-drift.ts), each on a real core over gRPC with no
 * page cache (every call a parse): a new price widget on the product page and a new result
 * container on the search page each open the incident of their own page kind, naming the field they
 * took away, within 20 drifted parses; and what the drift leaves of the page is still the page (the
 * title, the other blocks), so the incident is about the field, not a broken page.
 */
import { resolve } from 'node:path';
import { DataHealthService, DataIncidentState, Domain } from '@retail/contract';
import { createCoreClient, registryOperation, type CoreClient } from '@retail/gateway-shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';
import { applyDrift, type LayoutDrift } from './layout-drift.js';
import { createReplayServer, type ReplayServer } from './server.js';
import { createTimeline } from './timeline.js';
import { TIMELINE_STATES, timelinePage } from './timeline-page.js';

const ASIN = 'B0FXTIME01';
/** Longer than the core's batch of parses (50 ms) and its judgement of the window. */
const SETTLE_MS = 150;

let replay: ReplayServer | undefined;
let core: StartedCore | undefined;
afterEach(async () => {
  await core?.stop();
  await replay?.close();
});

async function startDrifting(drift: { current: LayoutDrift | undefined }): Promise<CoreClient> {
  replay = await createReplayServer({ corpusDirs: [resolve(import.meta.dirname, '../fixtures/pages')], timeline: createTimeline({ asins: [ASIN] }), drift });
  core = await startCore({ marketplaceOrigin: replay.origin, env: { CACHE_MAX_BYTES: '0' } });
  return createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 60_000 });
}

/** `times` calls, each parsed and judged; the calls that failed (an unreadable page is an answer too). */
async function calls(times: number, call: () => Promise<unknown>): Promise<number> {
  let failed = 0;
  for (let i = 0; i < times; i++) {
    await call().catch(() => void (failed += 1));
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
  return failed;
}

async function statusOf(client: CoreClient, kind: string) {
  const status = await client.unaryCall(DataHealthService.method.getDataStatus, {}, { requestId: 'status' });
  return status.kinds.find((k) => k.marketplace === 'US' && k.kind === kind);
}

describe('a new price widget on the product page', () => {
  it('shows the same price in new markup (the old block gone), and opens a major product incident on price within 20 parses', async () => {
    const page = timelinePage(ASIN, TIMELINE_STATES[0]!);
    const drifted = applyDrift('new-price-widget', page);
    expect(drifted).not.toContain('corePriceDisplay_desktop_feature_div');
    expect(drifted).toContain('data-amount="10.00"');
    expect(drifted).toContain('id="availability"');

    const drift: { current: LayoutDrift | undefined } = { current: undefined };
    const client = await startDrifting(drift);
    const product = () => client.callOperation(registryOperation('GetProduct'), { asin: ASIN, domain: Domain.US }, { requestId: 'widget' });
    expect(await calls(20, product)).toBe(0);
    expect((await statusOf(client, 'product'))?.state ?? DataIncidentState.HEALTHY).toBe(DataIncidentState.HEALTHY);
    drift.current = 'new-price-widget';
    // Still a product page: the record comes without its price.
    const answer = (await product()).response as { retailProduct?: { title?: string; price?: unknown; isInStock?: boolean } };
    expect(answer.retailProduct).toMatchObject({ title: expect.stringContaining('Northwind'), isInStock: true });
    expect(answer.retailProduct?.price).toBeUndefined();
    expect(await calls(19, product)).toBe(0);
    expect(await statusOf(client, 'product')).toMatchObject({ state: DataIncidentState.MAJOR, fields: ['price'] });
  }, 90_000);
});

describe('a search grid with a new result container', () => {
  it('leaves no result card the parser knows, and opens a major search incident on its results within 20 parses', async () => {
    const drift: { current: LayoutDrift | undefined } = { current: undefined };
    const client = await startDrifting(drift);
    const search = () => client.callOperation(registryOperation('SearchProducts'), { searchTerm: 'espresso machine', domain: Domain.US }, { requestId: 'grid' });
    const results = async () => ((await search()).response as { retailProductSearchResults?: { productResults?: { results?: unknown[] } } }).retailProductSearchResults?.productResults?.results ?? [];
    expect((await results()).length).toBeGreaterThan(0);
    expect(await calls(19, search)).toBe(0);
    expect((await statusOf(client, 'search'))?.state ?? DataIncidentState.HEALTHY).toBe(DataIncidentState.HEALTHY);
    drift.current = 'search-grid-container';
    await calls(20, search);
    // The results are gone, and with them every result field the kind declares usual.
    const status = await statusOf(client, 'search');
    expect(status?.state).toBe(DataIncidentState.MAJOR);
    expect(status?.fields[0]).toBe('results');
  }, 90_000);
});
