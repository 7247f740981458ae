import { describe, expect, it } from 'vitest';
import { corpusSkipReason, ratio } from './page-kind-harness.js';
import { PAGE_KINDS } from './page-kinds.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`offers pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = PAGE_KINDS.offers!();
    console.log(`offers: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(3);
    // Measured 100% (134/134) once OfferDelivery.price became a number, as the goldens write it.
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.99);
  });
});
