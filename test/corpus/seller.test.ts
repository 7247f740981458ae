import { describe, expect, it } from 'vitest';
import { corpusSkipReason, ratio } from './page-kind-harness.js';
import { PAGE_KINDS } from './page-kinds.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`seller storefront pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = PAGE_KINDS.seller!();
    console.log(`seller: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(2);
    // Measured 100% (36/36).
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.98);
  });
});
