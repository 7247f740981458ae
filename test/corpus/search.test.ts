import { describe, expect, it } from 'vitest';
import { corpusSkipReason, ratio } from './page-kind-harness.js';
import { PAGE_KINDS } from './page-kinds.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`search pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = PAGE_KINDS.search!();
    console.log(`search: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(5);
    // Measured 100% (213/213); the threshold sits just under it.
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.99);
  });
});
