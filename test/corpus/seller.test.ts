import { GetSellerResponseSchema } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { parseSellerStorefront } from '../../core/src/parsers/seller.js';
import { corpusSkipReason, ratio, runKind } from './page-kind-harness.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`seller storefront pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = runKind('seller', GetSellerResponseSchema, (html, marketplace, request) => ({
      retailSeller: parseSellerStorefront(html, { marketplace, sellerId: String(request.sellerId) }),
    }));
    console.log(`seller: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(2);
    // Measured 100% (36/36).
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.98);
  });
});
