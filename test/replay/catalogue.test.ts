/**
 * The catalogue's rules, on the project's fixture recordings plus a corpus-style folder written
 * here: what each recording is listed for, what is left out, and what becomes an error example.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from './catalogue.js';
import { loadCorpusEntries } from './corpus-index.js';
import type { Recording } from './server.js';

const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const corpus = mkdtempSync(join(tmpdir(), 'catalogue-corpus-'));
mkdirSync(join(corpus, 'golden'));
const real = (id: string, operation: string, request: Record<string, string>, extra: object = {}) => ({ id, operation, domain: request.domain!, url: `https://www.amazon.com/x/${id}`, status: 200, page: 'p.html', request, source: 'someone/else tests/page.html', ...extra });
writeFileSync(join(corpus, 'index.json'), JSON.stringify([
  real('us-product-B000000001', 'product', { asin: 'B000000001', domain: 'US' }),
  real('us-reviews-B000000002', 'reviews', { asin: 'B000000002', domain: 'US' }, { url: 'https://www.amazon.com/product-reviews/B000000002' }),
  real('ae-product-B000000003', 'product', { asin: 'B000000003', domain: 'AE' }),
  real('us-blocked-1', 'product(blocked)', { asin: 'B0BLOCK001', domain: 'US' }, { status: 503, golden: 'us-blocked-1.json' }),
  // The same request as a project fixture: listed once, from the fixture.
  real('us-product-B0FXUSP001', 'product', { asin: 'B0FXUSP001', domain: 'US' }),
]));
writeFileSync(join(corpus, 'golden', 'us-blocked-1.json'), JSON.stringify({ expectError: { status: 503 } }));
afterAll(() => rmSync(corpus, { recursive: true, force: true }));

const recordings: Recording[] = [fixtures, corpus].flatMap((dir) => loadCorpusEntries(dir).map((entry) => ({ entry, dir })));
const listed = (c: ReturnType<typeof buildDemoCatalogue>, asin: string) => c.entries.filter((e) => e.query.asin === asin).map((e) => e.operation).sort();

describe('buildDemoCatalogue', () => {
  const catalogue = buildDemoCatalogue(recordings, ['fixtures', 'corpus'], { reviewsSession: false });

  it('lists a project product page for everything its page answers, a real one for what it was recorded for', () => {
    expect(listed(catalogue, 'B0FXPLP001')).toEqual(['GetGtinFromAsin', 'GetProduct', 'GetProductVariants', 'GetSalesEstimate', 'GetStockEstimate']);
    expect(listed(catalogue, 'B000000001')).toEqual(['GetProduct']);
    expect(catalogue.entries.filter((e) => e.query.asin === 'B0FXUSP001' && e.operation === 'GetProduct')).toEqual([expect.objectContaining({ source: 'project fixture' })]);
  });

  it('leaves out marketplaces outside the 13 and supporting pages whose request is not the operation\'s', () => {
    expect(listed(catalogue, 'B000000003')).toEqual([]);
    // The GTIN search's candidate pages are filed under asin-from-gtin with an asin: not a request of it.
    expect(catalogue.entries.some((e) => e.operation === 'GetAsinFromGtin' && e.query.asin !== undefined)).toBe(false);
    expect(catalogue.entries.every((e) => e.query.domain === e.domain)).toBe(true);
  });

  it('turns blocked and missing pages into error examples with the status their golden expects', () => {
    expect(catalogue.errors.map((e) => [e.recording, e.status])).toEqual(expect.arrayContaining([['us-blocked-1', 503], ['fixture-us-product-not-found', 404]]));
    expect(catalogue.entries.some((e) => e.recording === 'us-blocked-1')).toBe(false);
  });

  it('lists review-list recordings only with a marketplace session, and the product page with top reviews only without one', () => {
    expect(listed(catalogue, 'B000000002')).toEqual([]);
    expect(listed(catalogue, 'B0FXREV001')).toEqual(['GetProductReviews']);
    const withSession = buildDemoCatalogue(recordings, [], { reviewsSession: true });
    expect(listed(withSession, 'B000000002')).toEqual(['GetProductReviews']);
    expect(listed(withSession, 'B0FXREV001')).toEqual([]);
  });

  it('does not list reviews for the product pages that hold none', () => {
    expect(catalogue.entries.filter((e) => e.operation === 'GetProductReviews').map((e) => e.query.asin)).toEqual(['B0FXREV001']);
  });

  it('orders by marketplace, then operation, fixtures before real pages', () => {
    const domains = catalogue.entries.map((e) => e.domain);
    expect(domains.indexOf('PL')).toBeGreaterThan(domains.lastIndexOf('US'));
    expect(catalogue.marketplaces).toEqual(['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL']);
  });
});
