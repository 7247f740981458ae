/**
 * Inputs of the contract suite: a minimal valid call of every operation, the corpus requests with
 * their golden outcomes, and fast-check arbitraries of invalid values for every parameter. The
 * invalidity oracle is written here from the published rules, independently of the gateway code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Operation, Parameter } from '@retail/gateway-shared';

/** A valid value of each parameter a minimal call needs (test data, by wire name). */
const EXAMPLES: Record<string, unknown> = {
  asin: 'B0TEST0001',
  gtin: '9780306406157',
  searchTerm: 'kettle',
  sellerId: 'A2L77EE7U53NWQ',
  categoryId: 'electronics',
};

/** Required parameters plus one member of each exactly-one-of group. */
export function minimalParams(op: Operation): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const groups = new Set<string>();
  for (const p of op.parameters) {
    if (p.required || (p.oneOfGroup && !groups.has(p.oneOfGroup) && p.name in EXAMPLES)) {
      if (!(p.name in EXAMPLES)) throw new Error(`no example value for ${op.name}.${p.name}`);
      params[p.name] = EXAMPLES[p.name];
      if (p.oneOfGroup) groups.add(p.oneOfGroup);
    }
  }
  return params;
}

/** Corpus and fixture operation names → RPC names. */
const CORPUS_OPERATIONS: Record<string, string> = {
  product: 'GetProduct',
  'asin-from-gtin': 'GetAsinFromGtin',
  'gtin-from-asin': 'GetGtinFromAsin',
  autocomplete: 'GetAutocompleteSuggestions',
  deals: 'GetDeals',
  'bestseller-categories': 'GetBestSellerCategories',
  author: 'GetAuthor',
  categories: 'GetCategoryTaxonomy',
  category: 'GetCategory',
  variants: 'GetProductVariants',
  offers: 'GetProductOffers',
  reviews: 'GetProductReviews',
  search: 'SearchProducts',
  bestsellers: 'GetBestSellers',
  seller: 'GetSeller',
  'product(blocked)': 'GetProduct',
  'product(error)': 'GetProduct',
};

const DOMAINS = new Set(['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL']);

export interface CorpusCase {
  readonly id: string;
  readonly operation: string;
  readonly request: Record<string, unknown>;
  readonly expect?: { data?: Record<string, unknown> };
  readonly expectError?: { status: number; reason: string };
}

interface IndexEntry {
  id: string;
  operation: string;
  domain: string;
  golden?: string;
  status?: number;
  request: Record<string, unknown>;
}

function readCases(dir: string): CorpusCase[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as IndexEntry[];
  return index
    .filter((e) => DOMAINS.has(e.domain) && CORPUS_OPERATIONS[e.operation] && e.golden)
    .map((e) => {
      const golden = JSON.parse(readFileSync(join(dir, 'golden', e.golden!), 'utf8')) as Pick<CorpusCase, 'expect' | 'expectError'>;
      return {
        id: e.id,
        operation: CORPUS_OPERATIONS[e.operation]!,
        request: e.request,
        ...(golden.expect ? { expect: golden.expect } : {}),
        ...(golden.expectError ? { expectError: golden.expectError } : {}),
      };
    });
}

/** Corpus entries of the 13 marketplaces with their goldens; empty without RETAIL_CORPUS. */
export function corpusCases(): CorpusCase[] {
  const dir = process.env.RETAIL_CORPUS;
  if (!dir || !existsSync(join(dir, 'index.json'))) return [];
  return readCases(dir);
}

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pages');

/** The project's own fixture pages with goldens (test/fixtures/pages): always present. */
export function fixtureCases(): CorpusCase[] {
  return existsSync(join(FIXTURES, 'index.json')) ? readCases(FIXTURES) : [];
}

/** Operations computed from the product page, so any product request serves them too. */
const FROM_PRODUCT_PAGE = ['GetStockEstimate', 'GetSalesEstimate', 'GetProductReviews'];

/**
 * One request per operation that the replay server can answer with data (a golden with `expect`),
 * from the fixtures first, then the corpus.
 */
export function successRequests(): Map<string, { id: string; request: Record<string, unknown> }> {
  const out = new Map<string, { id: string; request: Record<string, unknown> }>();
  // Fixture product pages carry no golden (their parser tests hold the expectations); status 200 suffices.
  const fixtureProducts = existsSync(join(FIXTURES, 'index.json'))
    ? (JSON.parse(readFileSync(join(FIXTURES, 'index.json'), 'utf8')) as IndexEntry[])
        .filter((e) => e.operation === 'product' && e.status === 200 && e.domain === 'US')
        .map((e) => ({ id: e.id, operation: 'GetProduct', request: e.request, expect: { data: {} } }))
    : [];
  for (const entry of [...fixtureProducts, ...fixtureCases(), ...corpusCases()]) {
    if (!entry.expect?.data || out.has(entry.operation)) continue;
    out.set(entry.operation, { id: entry.id, request: entry.request });
    if (entry.operation === 'GetProduct') {
      for (const op of FROM_PRODUCT_PAGE) if (!out.has(op)) out.set(op, { id: `${entry.id} (${op})`, request: entry.request });
    }
  }
  return out;
}

// ---- invalid values -------------------------------------------------------------------------

const codePoints = (s: string) => [...s].length;

function invalidString(p: Parameter, s: string): boolean {
  if (p.minLength !== undefined && codePoints(s) < p.minLength) return true;
  if (p.maxLength !== undefined && codePoints(s) > p.maxLength) return true;
  return p.pattern !== undefined && !new RegExp(p.pattern, 'u').test(s);
}

const ODD_STRINGS = ['', ' ', '\t', '%', '../../etc/passwd', 'http://127.0.0.1/', '<script>', 'x'.repeat(3000), '\u0000', 'ünïcödé', '💥'];

function invalidStrings(p: Parameter, noCommas: boolean): fc.Arbitrary<string> {
  return fc
    .oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 12 }))
    .filter((s) => invalidString(p, s) && !(noCommas && s.includes(',')));
}

function invalidNumbers(p: Parameter, integer: boolean): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom('abc', '', 'NaN', '1,2')];
  if (p.minimum !== undefined) options.push(integer ? fc.integer({ min: -1e9, max: p.minimum - 1 }) : fc.double({ max: p.minimum - 0.001, min: -1e9, noNaN: true }));
  if (p.maximum !== undefined) options.push(integer ? fc.integer({ min: p.maximum + 1, max: 1e9 }) : fc.double({ min: p.maximum + 0.001, max: 1e9, noNaN: true }));
  if (integer) options.push(fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)));
  return fc.oneof(...options);
}

function invalidEnum(p: Parameter): fc.Arbitrary<string> {
  const values = new Set(p.enumValues ?? []);
  return fc
    .oneof(fc.constantFrom('UNSPECIFIED', '', 'us', 'five_star', 'NONE'), fc.string({ maxLength: 12 }))
    .filter((s) => !values.has(s) && !s.includes(','));
}

/** Values that break the published rules of `p` on every interface. */
export function invalidValues(p: Parameter): fc.Arbitrary<unknown> {
  switch (p.kind) {
    case 'string':
      return invalidStrings(p, false);
    case 'integer':
      return invalidNumbers(p, true);
    case 'number':
      return invalidNumbers(p, false);
    case 'boolean':
      return fc.constantFrom('yes', 'TRUE', '1', 'on', 2);
    case 'enum':
      return invalidEnum(p);
    case 'string-list':
      return invalidStrings(p, true).map((s) => [s]);
    case 'enum-list':
      return invalidEnum(p).map((s) => ['NEW', s]);
    case 'field-mask':
      // No record has such a field; GraphQL takes no fields argument (its selection set selects).
      return fc.constantFrom('noSuchField', 'title.noSuchField', '7', []);
    case 'object':
    case 'object-list':
      // Only watch operations take objects; their rules are tested with the watch interfaces.
      return fc.constantFrom('not an object', 7, [[]]);
  }
}

export interface Mutation {
  readonly name: string;
  readonly value: unknown;
}

/** One broken parameter of `op`: a rule violated, or a name the operation does not take. */
export function mutations(op: Operation): fc.Arbitrary<Mutation> {
  const names = new Set(op.parameters.map((p) => p.name));
  const unknown = fc
    .oneof(fc.constantFrom('bogus', 'asin[0]', 'page ', 'API-KEY', '__proto__', 'constructor'), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/))
    .filter((n) => !names.has(n))
    .map((name) => ({ name, value: 'x' }));
  const ruled = op.parameters.filter((p) => p.kind !== 'string' || p.pattern || p.minLength !== undefined || p.maxLength !== undefined);
  return fc.oneof(unknown, ...ruled.map((p) => invalidValues(p).map((value) => ({ name: p.name, value }))));
}
