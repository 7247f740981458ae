import { GetProductReviewsResponseSchema } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { parseReviewsPage } from '../../core/src/parsers/reviews.js';
import { corpusSkipReason, ratio, runKind } from './page-kind-harness.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`reviews pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = runKind('reviews', GetProductReviewsResponseSchema, (html, marketplace, request) => ({
      retailProduct: { reviewsPaginated: parseReviewsPage(html, { marketplace, asin: String(request.asin) }) },
    }));
    console.log(`reviews: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(2);
    // Measured 100% (135/135).
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.98);
  });
});
