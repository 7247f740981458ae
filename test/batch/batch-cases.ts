/**
 * The batch of 100 the interface tests send: successes on the fixture pages (identical items spread
 * through the list), items the core fails (not found, blocked by a captcha), items the gateway
 * refuses on their own (bad check digit, malformed params, unknown operation), each with the status
 * and, where it matters, the message and path its single call answers. Identical items sit far
 * apart so that only the batch's own de-duplication (never two concurrent fetches meeting in the
 * core's single-flight) can fetch their page once.
 */
export interface BatchCase {
  readonly item: unknown;
  readonly status: number;
  /** The error entry's message, when the case pins it. */
  readonly message?: string;
  /** Where the error points, after `["body", "items", "<index>"]` on REST. */
  readonly at?: readonly string[];
}

const product = (asin: string, domain?: string) => ({ operation: 'product', params: { asin, ...(domain ? { domain } : {}) } });
const times = (n: number, make: (i: number) => BatchCase): BatchCase[] => Array.from({ length: n }, (_, i) => make(i));

const MALFORMED: BatchCase[] = [
  { item: product('B00'), status: 400, at: ['params', 'asin'] },
  { item: { operation: 'product/offers', params: { asin: 'B0FXTUS001', page: 0 } }, status: 400, message: 'page must be between 1 and 100', at: ['params', 'page'] },
  { item: { operation: 'nope', params: {} }, status: 400, at: ['operation'] },
  { item: { params: { asin: 'B0FXTUS001' } }, status: 400, message: 'operation is required', at: ['operation'] },
  { item: { operation: 'product', params: {} }, status: 400, message: 'asin, url or gtin must be provided', at: ['params', 'asin'] },
  { item: { operation: 'product', params: { asin: 'B0FXTUS001', colour: 'red' } }, status: 400, message: 'unknown parameter colour', at: ['params', 'colour'] },
  { item: 'B0FXTUS001', status: 400, at: [] },
  { item: { operation: 'search', params: { searchTerm: 'kettle' } }, status: 400, at: ['operation'] },
  { item: product(12345 as unknown as string), status: 400, message: 'asin must be a string', at: ['params', 'asin'] },
  { item: { operation: 'product', params: 'B0FXTUS001' }, status: 400, message: 'params must be an object', at: ['params'] },
];

/** The groups, before they are interleaved. */
const GROUPS: BatchCase[][] = [
  times(20, () => ({ item: product('B0FXTUS001'), status: 200 })),
  times(10, () => ({ item: product('B0FXTDE001', 'DE'), status: 200 })),
  times(5, () => ({ item: product('B0FXTJP001', 'JP'), status: 200 })),
  times(5, () => ({ item: product('0316769487'), status: 200 })),
  times(5, () => ({ item: { operation: 'product/gtin-from-asin', params: { asin: 'B0FXTUS001' } }, status: 200 })),
  times(5, () => ({ item: { operation: 'product/asin-from-gtin', params: { gtin: '9780316769488' } }, status: 200 })),
  times(5, () => ({ item: { operation: 'product/stock', params: { asin: 'B0FXTUS001' } }, status: 200 })),
  times(5, () => ({ item: { operation: 'product/sales', params: { asin: 'B0FXTUS001' } }, status: 200 })),
  times(10, () => ({ item: { operation: 'product/asin-from-gtin', params: { gtin: '4006381333932' } }, status: 400, message: 'gtin has an invalid check digit', at: ['params', 'gtin'] })),
  times(10, (i) => ({ item: product(`B0NOTFND0${i}`), status: 404, message: 'the marketplace has no such product' })),
  times(10, () => ({ item: product('B0CAPTCHA1'), status: 503 })),
  MALFORMED,
];

/** Round robin over the groups: the 100 cases, identical items far apart. */
function interleave(groups: readonly BatchCase[][]): BatchCase[] {
  const out: BatchCase[] = [];
  for (let round = 0; out.length < groups.reduce((n, g) => n + g.length, 0); round++) {
    for (const group of groups) if (group[round]) out.push(group[round]!);
  }
  return out;
}

export const BATCH_OF_100: readonly BatchCase[] = interleave(GROUPS);

/** Items whose answer is a 200: what the batch is charged. */
export const SUCCESSES = BATCH_OF_100.filter((c) => c.status === 200).length;

/** Only the DE product items read /dp/B0FXTDE001: ten items, one fetch. */
export const DEDUPED_PAGE = { path: '/dp/B0FXTDE001', items: 10 };
