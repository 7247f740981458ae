import { GetProductVariantsResponseSchema } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { parseVariantsPage } from '../../core/src/parsers/variants.js';
import { corpusSkipReason, ratio, runKind } from './page-kind-harness.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`variants pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = runKind('variants', GetProductVariantsResponseSchema, (html, marketplace, request) => ({
      retailProduct: parseVariantsPage(html, { marketplace, asin: String(request.asin) }),
    }));
    console.log(`variants: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(1);
    // Measured 100% (1/1: the subset of 206 child ASINs).
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(1);
  });
});
