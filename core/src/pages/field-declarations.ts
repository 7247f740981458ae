/*
 * What a healthy page of each kind yields, declared once (issue 23). Everything else about field
 * health (the accounting, the metrics, the baselines, the incidents, the status page) is derived
 * from this table, and so is the page archive's `incomplete` rule (archive/archive-policy.ts: a parse
 * without a required field). A parse is judged by the record its parser returned, so parsers stay
 * pure and know nothing of it. It sits with the page types, below the fetching layer, so that both
 * the archive (fetching) and the health accounting (above the parsers) read the one table; its keys
 * are the parser registry's ids, checked against it where the registry is in reach
 * (health/field-declarations.ts).
 *
 * - required: the record is useless without it; missing on most pages of a kind = a major incident.
 * - usual: most healthy pages have it; its completeness falling well below its baseline = degraded.
 *   `baseline` is the declared share of pages that carry it, used until the service has learned its
 *   own (baselines.ts).
 *
 * Kinds are named as the REST paths after /api/retail/ (`product`, `product/offers`, `search` …).
 * Field names are the JSON names clients see (`price`, `isInStock`); for list pages a field is
 * present when most of the page's results carry it, and `results` when the page has results (or
 * says it has none).
 */

export type FieldLevel = 'required' | 'usual';

export interface DeclaredField {
  readonly name: string;
  readonly level: FieldLevel;
  /** Share of healthy pages that carry it (0–1): the baseline before one is learned. */
  readonly baseline: number;
  readonly present: (record: unknown) => boolean;
}

export interface PageKindHealth {
  /** The REST path after /api/retail/ of the operations this page serves. */
  readonly kind: string;
  readonly fields: readonly DeclaredField[];
}

type Rec = Readonly<Record<string, unknown>>;
const obj = (v: unknown): Rec => (v !== null && typeof v === 'object' ? (v as Rec) : {});
const has = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
const list = (v: unknown): readonly Rec[] => (Array.isArray(v) ? (v as Rec[]) : []);

const required = (name: string, present: (r: unknown) => boolean): DeclaredField => ({ name, level: 'required', baseline: 0.98, present });
const usual = (name: string, baseline: number, present: (r: unknown) => boolean): DeclaredField => ({ name, level: 'usual', baseline, present });

/** A field of a list page: present when at least half of the page's items carry it. */
const mostItems = (items: (r: unknown) => readonly Rec[], field: string) => (r: unknown) => {
  const all = items(r);
  return all.length > 0 && all.filter((item) => has(item[field])).length * 2 >= all.length;
};

/** A product-results page (search, deals, best sellers …): results and the usual result fields. */
function resultsPage(kind: string, results: (r: unknown) => readonly Rec[], emptyIsAnswer: (r: unknown) => boolean = () => false): PageKindHealth {
  return {
    kind,
    fields: [
      required('results', (r) => results(r).length > 0 || emptyIsAnswer(r)),
      required('title', mostItems(results, 'title')),
      usual('price', 0.8, mostItems(results, 'price')),
      usual('mainImageUrl', 0.9, mostItems(results, 'mainImageUrl')),
      usual('rating', 0.6, mostItems(results, 'rating')),
    ],
  };
}

/** The record of a marked page (parser-registry.ts, MarkedPage): its data and the page's marker. */
const data = (r: unknown) => obj(obj(r).data);
const marked = (r: unknown) => obj(r).marked === true;
const product = (r: unknown) => {
  const parsed = obj(obj(r).product);
  return parsed.ok === true ? obj(obj(parsed.value).product) : {};
};

const PRODUCT: PageKindHealth = {
  kind: 'product',
  fields: [
    required('title', (r) => has(product(r).title)),
    // A price, or an explicit unavailability (a page that says the product cannot be bought).
    required('price', (r) => has(product(r).price) || product(r).isInStock === false),
    required('isInStock', (r) => typeof product(r).isInStock === 'boolean'),
    usual('brand', 0.85, (r) => has(product(r).brand)),
    usual('rating', 0.8, (r) => has(product(r).rating)),
    usual('ratingsTotal', 0.8, (r) => has(product(r).ratingsTotal)),
    usual('mainImageUrl', 0.95, (r) => has(product(r).mainImageUrl)),
    usual('featureBullets', 0.8, (r) => has(product(r).featureBullets)),
    usual('categories', 0.8, (r) => has(product(r).categories)),
  ],
};

const offers = (r: unknown) => list(data(r).offers);
const reviews = (r: unknown) => list(data(r).reviews);
const productResults = (field: string) => (r: unknown) => list(obj(obj(r)[field]).results);

/** The declaration of each parser the operations read through (operations/parsed-pages.ts), by parser id. */
export const FIELD_DECLARATIONS = {
  'product-page': PRODUCT,
  'search-page': resultsPage('search', (r) => list(obj(data(r).productResults).results), marked),
  'deals-page': resultsPage('deals', (r) => list(data(r).results), marked),
  bestsellers: resultsPage('bestsellers', productResults('productResults')),
  'offers-page': {
    kind: 'product/offers',
    fields: [required('offers', (r) => offers(r).length > 0), required('price', mostItems(offers, 'price')), usual('seller', 0.9, mostItems(offers, 'seller'))],
  },
  'reviews-page': {
    kind: 'product/reviews',
    fields: [
      // A product without reviews has a page that says so (its marker): that is an answer, not a gap.
      required('reviews', (r) => reviews(r).length > 0 || marked(r)),
      usual('rating', 0.95, mostItems(reviews, 'rating')),
      usual('body', 0.9, mostItems(reviews, 'body')),
      usual('date', 0.9, mostItems(reviews, 'date')),
    ],
  },
  'seller-storefront': { kind: 'seller', fields: [required('name', (r) => has(obj(r).name)), usual('rating', 0.7, (r) => has(obj(r).rating))] },
  'seller-profile': { kind: 'seller', fields: [required('name', (r) => has(obj(r).name)), usual('rating', 0.7, (r) => has(obj(r).rating))] },
  author: { kind: 'author', fields: [required('name', (r) => has(obj(r).name)), usual('books', 0.8, (r) => productResults('bookResults')(r).length > 0)] },
  category: { kind: 'category', fields: [required('name', (r) => has(obj(r).name)), usual('results', 0.8, (r) => productResults('productResults')(r).length > 0)] },
  categories: { kind: 'categories', fields: [required('categories', (r) => list(r).length > 0)] },
  'bestseller-categories': { kind: 'bestseller-categories', fields: [required('categories', (r) => list(r).length > 0)] },
} satisfies Readonly<Record<string, PageKindHealth>>;

/** Every declared kind, once, with its fields (seller's two pages share one kind). */
export const DECLARED_KINDS: ReadonlyMap<string, PageKindHealth> = new Map(Object.values(FIELD_DECLARATIONS).map((h) => [h.kind, h]));

/** The declaration of a parser by its id; undefined for a parser not declared. */
export function declarationOf(parser: string): PageKindHealth | undefined {
  return Object.hasOwn(FIELD_DECLARATIONS, parser) ? FIELD_DECLARATIONS[parser as keyof typeof FIELD_DECLARATIONS] : undefined;
}

/** The required fields a parser's record lacks (empty when complete or when the parser is not declared). */
export function missingRequiredFields(parser: string, record: unknown): string[] {
  return (declarationOf(parser)?.fields ?? []).filter((f) => f.level === 'required' && !f.present(record)).map((f) => f.name);
}
