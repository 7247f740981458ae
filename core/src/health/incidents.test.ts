import { describe, expect, it } from 'vitest';
import { createFieldHealth } from './field-health.js';
import { createMemoryFieldWindow } from './field-window.js';
import { createIncidentKeeper, type IncidentKeeperOptions } from './incident-keeper.js';
import { createMemoryIncidentStore, type IncidentStore, type IncidentTransition } from './incident-store.js';

/** A product-page record as the product-page parser returns it, with the given product fields. */
const productRecord = (product: Record<string, unknown>) => ({ product: { ok: true, value: { product, detailRows: [] } }, isProductPage: true });
const HEALTHY = { title: 'Kettle', price: { value: 10 }, isInStock: true, brand: 'Northwind', rating: 4.4, ratingsTotal: 2048, mainImageUrl: 'https://m.media-amazon.com/k.jpg', featureBullets: ['1 l'], categories: [{ name: 'Kitchen' }] };
const without = (...fields: string[]) => Object.fromEntries(Object.entries(HEALTHY).filter(([k]) => !fields.includes(k)));
const PAGES = {
  healthy: productRecord(HEALTHY),
  priceDrift: productRecord(without('price')),
  ratingDrift: productRecord(without('rating', 'ratingsTotal')),
  discontinued: productRecord({ ...without('price'), isInStock: false }),
  noReviews: productRecord(without('rating', 'ratingsTotal')),
};

/** One core: its field health judged by its incident keeper, every parse flushed (judged) at once. */
function core(store: IncidentStore = createMemoryIncidentStore(), options: Partial<IncidentKeeperOptions> = {}, minLearned = 200) {
  const lines: { msg: string; line: object }[] = [];
  const logger = { warn: (line: object, msg?: string) => void lines.push({ msg: String(msg), line }), info: (line: object, msg?: string) => void lines.push({ msg: String(msg), line }) };
  const transitions: IncidentTransition[] = [];
  const incidents = createIncidentKeeper({ store, logger, refreshMs: 0, onTransition: (t) => transitions.push(t), ...options });
  const health = createFieldHealth({ store: createMemoryFieldWindow(), flushMs: 60_000, minLearned, learning: incidents.learning, onSnapshot: (s) => void incidents.observe(s), logger });
  const parse = async (page: keyof typeof PAGES, times = 1) => {
    for (let i = 0; i < times; i++) {
      health.record('US', 'product-page', { record: PAGES[page] });
      await health.flush();
      await incidents.observe((await health.read('US', 'product')));
    }
  };
  /** Parses `page` until the state is not `from`; how many it took (Infinity after `limit`). */
  const parsesUntilChange = async (page: keyof typeof PAGES, limit = 40) => {
    const from = incidents.record('US', 'product').state;
    for (let n = 1; n <= limit; n++) {
      await parse(page);
      if (incidents.record('US', 'product').state !== from) return n;
    }
    return Infinity;
  };
  return { parse, parsesUntilChange, incidents, health, transitions, lines, state: () => incidents.record('US', 'product') };
}

describe('data incidents of a (marketplace, kind)', () => {
  it('odd pages (a discontinued product, a page without reviews) never open one, however they are spread', async () => {
    const c = core();
    await c.parse('healthy', 20);
    for (let round = 0; round < 10; round++) {
      await c.parse('healthy', 4);
      await c.parse(round % 2 ? 'discontinued' : 'noReviews');
    }
    expect(c.state().state).toBe('healthy');
    expect(c.transitions).toEqual([]);
  });

  it('a price drift opens a major incident within 20 drifted parses, not before the 5th', async () => {
    const c = core();
    await c.parse('healthy', 20);
    const n = await c.parsesUntilChange('priceDrift');
    expect(n).toBeGreaterThanOrEqual(5);
    expect(n).toBeLessThanOrEqual(20);
    expect(c.state()).toMatchObject({ state: 'major', fields: ['price'] });
    expect(c.lines.at(-1)).toMatchObject({ msg: 'data incident opened', line: { marketplace: 'US', kind: 'product', from: 'healthy', to: 'major', fields: ['price'] } });
  });

  it('a fresh deployment never opens one from fewer than 5 parses', async () => {
    const c = core();
    await c.parse('priceDrift', 4);
    expect(c.state().state).toBe('healthy');
    await c.parse('priceDrift');
    expect(c.state().state).toBe('major');
  });

  it('a usual field drift is degraded, a price drift on top escalates to major, and recovery closes it; each change logged once', async () => {
    const c = core();
    await c.parse('healthy', 20);
    expect(await c.parsesUntilChange('ratingDrift')).toBeLessThanOrEqual(20);
    expect(c.state()).toMatchObject({ state: 'degraded', fields: ['rating', 'ratingsTotal'] });
    const openedAt = c.state().since;
    const both = productRecord(without('rating', 'ratingsTotal', 'price'));
    Object.assign(PAGES, { both });
    expect(await c.parsesUntilChange('both' as keyof typeof PAGES)).toBeLessThanOrEqual(20);
    expect(c.state()).toMatchObject({ state: 'major', fields: ['price', 'rating', 'ratingsTotal'] });
    expect(c.state().since).toBeGreaterThanOrEqual(openedAt);
    // Recovery: the incident holds until the window is mostly healthy again (hysteresis), then closes.
    await c.parse('healthy', 12);
    expect(c.state().state).not.toBe('healthy');
    await c.parse('healthy', 8);
    expect(c.state()).toMatchObject({ state: 'healthy', fields: [] });
    expect(c.transitions.map((t) => [t.from, t.to])).toEqual([
      ['healthy', 'degraded'],
      ['degraded', 'major'],
      ...c.transitions.slice(2, -1).map((t) => [t.from, t.to]),
      [c.transitions.at(-1)!.from, 'healthy'],
    ]);
    expect(c.transitions.map((t) => t.seq)).toEqual(c.transitions.map((_, i) => i + 1));
    expect(c.lines.filter((l) => l.msg.startsWith('data incident')).length).toBe(c.transitions.length);
    expect(c.lines.at(-1)?.msg).toBe('data incident closed');
  });

  it('a drift is never learned as the new baseline while the incident lasts', async () => {
    const c = core(createMemoryIncidentStore(), {}, 10);
    await c.parse('healthy', 20);
    const price = async () => (await c.health.read('US', 'product')).fields.find((f) => f.name === 'price')!;
    expect(await price()).toMatchObject({ baseline: 1, baselineLearned: true });
    await c.parsesUntilChange('priceDrift');
    const atOpening = (await price()).baseline;
    await c.parse('priceDrift', 30);
    expect(c.state().state).toBe('major');
    expect((await price()).baseline).toBe(atOpening);
  });

  it('two replicas judging one shared window record each change once', async () => {
    const store = createMemoryIncidentStore();
    const [a, b] = [core(store), core(store)];
    await a.parse('healthy', 20);
    await b.parse('healthy', 20);
    // Both see the same drift (as replicas reading one shared window do) and race to record it.
    for (let i = 0; i < 20; i++) await Promise.all([a.parse('priceDrift'), b.parse('priceDrift')]);
    expect(a.transitions.length + b.transitions.length).toBe(1);
    expect(await store.transitionsAfter(0)).toHaveLength(1);
    await Promise.all([a.incidents.refresh(), b.incidents.refresh()]);
    expect(a.state()).toEqual(b.state());
  });
});
