import { describe, expect, it } from 'vitest';
import { corpusSkipReason, ratio } from './page-kind-harness.js';
import { PAGE_KINDS } from './page-kinds.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`reviews pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = PAGE_KINDS.reviews!();
    console.log(`reviews: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(2);
    // Measured 100% (135/135).
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.99);
  });
});
