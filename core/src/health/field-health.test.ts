import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { failures, US, scriptedFetcher } from '../../test/page-doubles.js';
import { createMemoryPageCache } from '../cache/memory-store.js';
import { createParsedPageSource } from '../cache/parsed-pages.js';
import { loadProductPageParts } from '../operations/product-pages.js';
import type { OperationContext } from '../operations/types.js';
import type { FetchedPage } from '../pages/types.js';
import { applyDrift, type LayoutDrift } from '../../../test/replay/layout-drift.js';
import { TIMELINE_STATES, timelinePage } from '../../../test/replay/timeline-page.js';
import { withFieldHealth } from './accounted-pages.js';
import { createFieldHealth, type FieldHealthOptions } from './field-health.js';
import { createMemoryFieldWindow } from './field-window.js';
import type { FieldSnapshot } from './field-snapshot.js';

const ASIN = 'B0FXTIME01';
const healthy = () => timelinePage(ASIN, TIMELINE_STATES[0]!);
const drifted = (drift: LayoutDrift) => applyDrift(drift, healthy());
const pageOf = (html: string, status = 200): FetchedPage => ({ status, html, url: `https://www.amazon.com/dp/${ASIN}`, retrievedAt: new Date(0), fromCache: false });

/** Reads product pages through the real operation path (readPage, the parser), every page fetched anew unless `cached`. */
function setup(options: Partial<FieldHealthOptions> = {}, cached = false) {
  const health = createFieldHealth({ store: createMemoryFieldWindow(), flushMs: 60_000, ...options });
  const script: (() => Error | FetchedPage)[] = [];
  const fetcher = scriptedFetcher([() => script.shift()?.() ?? new Error('script ran out')]);
  const source = createParsedPageSource({ fetcher, ...(cached ? { cache: createMemoryPageCache({ maxBytes: 1 << 20 }) } : {}) });
  const ctx: OperationContext = {
    marketplace: US,
    signal: new AbortController().signal,
    pages: fetcher,
    parsedPages: withFieldHealth(source, health),
    logger: pino({ level: 'silent' }),
    requestId: 'test',
  };
  const read = async (answer: () => Error | FetchedPage) => {
    script.push(answer);
    await loadProductPageParts(ASIN, ctx).catch(() => undefined);
  };
  return { health, read, fetcher };
}

const field = (s: FieldSnapshot, name: string) => s.fields.find((f) => f.name === name)!;

describe('field health of product pages', () => {
  it('a healthy page produces every required field; a renamed price block misses price, a removed availability block isInStock', async () => {
    const s = setup();
    await s.read(() => pageOf(healthy()));
    await s.read(() => pageOf(timelinePage(ASIN, TIMELINE_STATES[2]!))); // out of stock: no price, but an explicit unavailability
    await s.read(() => pageOf(drifted('price-classes-renamed')));
    await s.read(() => pageOf(drifted('availability-removed')));
    await s.health.flush();
    const snapshot = await s.health.read('US', 'product');
    expect(snapshot.parses).toBe(4);
    expect(field(snapshot, 'title')).toMatchObject({ level: 'required', present: 4, completeness: 1 });
    expect(field(snapshot, 'price')).toMatchObject({ level: 'required', present: 3 });
    expect(field(snapshot, 'isInStock')).toMatchObject({ present: 3, completeness: 0.75 });
    expect(field(snapshot, 'rating')).toMatchObject({ level: 'usual', present: 4 });
  });

  it('404s, error statuses and blocked pages are no parses; an unreadable page is a parse with none of its fields', async () => {
    const s = setup();
    await s.read(() => pageOf('<html>gone</html>', 404));
    await s.read(() => pageOf('<html>oops</html>', 503));
    await s.read(() => failures.blocked());
    await s.health.flush();
    expect((await s.health.read('US', 'product')).parses).toBe(0);
    await s.read(() => pageOf('<html><body>Nothing a parser knows</body></html>'));
    await s.health.flush();
    const snapshot = await s.health.read('US', 'product');
    expect(snapshot.parses).toBe(1);
    expect(snapshot.fields.every((f) => f.present === 0)).toBe(true);
  });

  it('a page served from the cache is no new parse', async () => {
    const s = setup({}, true);
    await s.read(() => pageOf(healthy()));
    await s.read(() => new Error('not fetched: the cache answers'));
    await s.health.flush();
    expect(s.fetcher.calls).toBe(1);
    expect((await s.health.read('US', 'product')).parses).toBe(1);
  });

  it('the window keeps the last 20 parses: a drift fills it, recovery drains it', async () => {
    const s = setup();
    for (let i = 0; i < 25; i++) await s.read(() => pageOf(drifted('buybox-redesign')));
    await s.health.flush();
    expect(field(await s.health.read('US', 'product'), 'price')).toMatchObject({ present: 0, completeness: 0 });
    for (let i = 0; i < 15; i++) await s.read(() => pageOf(healthy()));
    await s.health.flush();
    const snapshot = await s.health.read('US', 'product');
    expect(snapshot.parses).toBe(20);
    expect(field(snapshot, 'price')).toMatchObject({ present: 15, completeness: 0.75 });
  });

  it('the declared baseline holds until enough parses were learned, then the learned one; drift is not learned while learning is off', async () => {
    let learning = true;
    const s = setup({ minLearned: 10, learning: () => learning });
    await s.read(() => pageOf(healthy()));
    await s.health.flush();
    expect(field(await s.health.read('US', 'product'), 'brand')).toMatchObject({ baseline: 0.85, baselineLearned: false });
    for (let i = 0; i < 9; i++) await s.read(() => pageOf(healthy()));
    await s.health.flush();
    expect(field(await s.health.read('US', 'product'), 'brand')).toMatchObject({ baseline: 1, baselineLearned: true });
    learning = false;
    for (let i = 0; i < 5; i++) await s.read(() => pageOf(drifted('buybox-redesign')));
    await s.health.flush();
    expect(field(await s.health.read('US', 'product'), 'price').baseline).toBe(1);
    learning = true;
    await s.read(() => pageOf(drifted('buybox-redesign')));
    await s.health.flush();
    expect(field(await s.health.read('US', 'product'), 'price').baseline).toBeLessThan(1);
  });

  it('exports the parse counters and the shared window as OpenTelemetry metrics', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const s = setup({ meter: provider.getMeter('test') });
    await s.read(() => pageOf(healthy()));
    await s.read(() => pageOf(drifted('price-classes-renamed')));
    await s.health.flush();
    await reader.forceFlush();
    const exported = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((m) => m.metrics));
    const points = (name: string) => exported.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
    expect(points('retail_parses')).toMatchObject([{ attributes: { marketplace: 'US', kind: 'product' }, value: 2 }]);
    const missing = points('retail_parse_fields_missing');
    expect(missing.find((p) => p.attributes.field === 'price')).toMatchObject({ attributes: { marketplace: 'US', kind: 'product' }, value: 1 });
    // Present on both pages, so never counted missing.
    expect(missing.find((p) => p.attributes.field === 'title')).toBeUndefined();
    expect(points('retail_field_completeness').find((p) => p.attributes.field === 'price')).toMatchObject({ value: 0.5, attributes: { level: 'required' } });
    expect(points('retail_field_window_parses')).toMatchObject([{ value: 2 }]);
    await provider.shutdown();
  });
});
