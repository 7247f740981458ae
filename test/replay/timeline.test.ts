/**
 * The time-varying product: the replay server answers its page in the state the test moved it to
 * (programmatically or through the admin endpoint), and the real core reads price, stock and seller
 * of every state from it. Requests to the admin endpoint are not counted as marketplace fetches.
 */
import { resolve } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { Domain, RetailService } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';
import { createReplayServer, type ReplayServer } from './server.js';
import { TIMELINE_ASIN, TIMELINE_STATES } from './timeline-page.js';
import { createTimeline } from './timeline.js';

let replay: ReplayServer;
let core: StartedCore;

beforeAll(async () => {
  replay = await createReplayServer({ corpusDirs: [resolve(import.meta.dirname, '../fixtures/pages')], timeline: createTimeline() });
  // Product pages are not cached (TTL 0): each step is read fresh.
  core = await startCore({ marketplaceOrigin: replay.origin, env: { CACHE_TTL_SECONDS: 'product=0' } });
});
afterAll(async () => {
  await core?.stop();
  await replay?.close();
});

const admin = (path: string, method = 'POST') => fetch(`${replay.origin}/__replay/timeline/${path}`, { method });

describe('the time-varying replay product', () => {
  it('moves through every state on demand, and the core reads each one', async () => {
    const client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
    const headers = { authorization: `Bearer ${core.token}` };
    const seen = [];
    for (let step = 0; step < TIMELINE_STATES.length; step++) {
      if (step > 0) expect((await (await admin(`${TIMELINE_ASIN}/advance`)).json()) as { position: number }).toMatchObject({ position: step });
      const { retailProduct } = await client.getProduct({ asin: TIMELINE_ASIN, domain: Domain.US }, { headers });
      seen.push({ price: retailProduct?.price?.value, inStock: retailProduct?.isInStock, seller: retailProduct?.seller?.sellerId });
    }
    expect(seen).toEqual([
      { price: 10, inStock: true, seller: 'A1TIMELINEACME' },
      { price: 8, inStock: true, seller: 'A1TIMELINEACME' },
      { price: undefined, inStock: false, seller: undefined },
      { price: 10, inStock: true, seller: 'A1TIMELINEACME' },
      { price: 10, inStock: true, seller: 'A2TIMELINEBOLT' },
    ]);
    expect(replay.requests.every((request) => !request.path.startsWith('/__replay'))).toBe(true);
  });

  it('jumps to a position, wraps round after the last state, and refuses unknown products and positions', async () => {
    replay.timeline!.set(TIMELINE_ASIN, TIMELINE_STATES.length - 1);
    expect(replay.timeline!.advance(TIMELINE_ASIN)).toBe(0);
    expect((await admin(`${TIMELINE_ASIN}?position=2`)).status).toBe(200);
    expect(((await (await admin(TIMELINE_ASIN, 'GET')).json()) as { state: unknown }).state).toEqual({ inStock: false });
    expect((await admin('B0NOTATIME/advance')).status).toBe(404);
    expect((await admin(`${TIMELINE_ASIN}?position=9`)).status).toBe(400);
  });

  it('moves on its own every step when asked to, by the clock it is given', () => {
    let now = 0;
    const timeline = createTimeline({ stepMs: 1000, clock: () => now });
    expect(timeline.position(TIMELINE_ASIN)).toBe(0);
    now = 2500;
    expect(timeline.state(TIMELINE_ASIN)).toEqual({ inStock: false });
    timeline.advance(TIMELINE_ASIN);
    expect(timeline.position(TIMELINE_ASIN)).toBe(3);
  });
});
