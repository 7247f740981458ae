/**
 * Which fetched pages the archive keeps (docs/page-archive.md): every page a watch refresh read,
 * every page the core refused (blocked, unparseable), every page that parsed without a field its
 * kind normally yields, and a sample of the rest. The field check is declared here per kind, a
 * second copy of the required fields of core/src/health/field-declarations.ts (same product and
 * search rules): the archive sits in the fetching layer, below the health accounting, and may not
 * import it. Folding them means moving the declarations below both (docs/page-archive.md, Not built yet).
 */
import type { ArchiveReason } from '@retail/contract/page-archive-handoff';
import type { PageKind } from '../pages/types.js';
import type { ArchiveHint } from './archive-hint.js';

type Record = { readonly [field: string]: unknown };
type FieldCheck = readonly [name: string, present: (record: Record) => boolean];

const has = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
const isRecord = (value: unknown): value is Record => typeof value === 'object' && value !== null;
/**
 * The record inside the parsers' envelopes: a section parsed on its own arrives as `{ ok: true, value }`
 * (the product page's sections; a failed one stays as it is and reads as empty), a page that carries
 * its page markers as `{ data, marked }` (search-style pages).
 */
function unwrap(value: unknown): unknown {
  if (isRecord(value) && value.ok === true && 'value' in value) return value.value;
  if (isRecord(value) && 'data' in value && 'marked' in value) return value.data;
  return value;
}
/** The product of a product page's record: `{ product: { ok, value: { product } } }` as the handlers read it, or a bare `{ product }`. */
function productOf(record: Record): Record {
  let product = unwrap(record.product ?? record);
  if (isRecord(product) && isRecord(product.product)) product = unwrap(product.product);
  return isRecord(product) ? product : {};
}

/** What a healthy page of each kind yields; kinds not listed are not checked. */
const EXPECTED_FIELDS: Partial<globalThis.Record<PageKind, readonly FieldCheck[]>> = {
  product: [
    ['title', (r) => has(productOf(r).title)],
    // A price, or an explicit unavailability: an in-stock product without a price is a misread.
    ['price', (r) => has(productOf(r).price) || productOf(r).isInStock === false],
    ['isInStock', (r) => has(productOf(r).isInStock)],
  ],
  search: [['results', (r) => { const page = unwrap(r); return isRecord(page) && (has(page.results) || has(page.productResults)); }]],
};

/** The declared fields the record lacks (empty when complete or unchecked). */
export function missingFields(kind: PageKind, record: unknown): string[] {
  const checks = EXPECTED_FIELDS[kind];
  if (!checks || typeof record !== 'object' || record === null) return [];
  return checks.filter(([, present]) => !present(record as Record)).map(([name]) => name);
}

export interface ArchiveVerdictInput {
  readonly hint: ArchiveHint | undefined;
  readonly refused?: 'blocked' | 'unparseable';
  readonly missing: readonly string[];
  /** A draw in [0, 1) for the sample. */
  readonly draw: number;
  readonly sampleRate: number;
}

/** Why the page is kept, or undefined when it is not. The strongest reason wins. */
export function archiveReason(input: ArchiveVerdictInput): ArchiveReason | undefined {
  if (input.refused) return input.refused;
  if (input.missing.length > 0) return 'incomplete';
  if (input.hint === 'watch-refresh') return 'watch-refresh';
  return input.draw < input.sampleRate ? 'sample' : undefined;
}
