import { describe, expect, it } from 'vitest';
import { corpusSkipReason, ratio } from './page-kind-harness.js';
import { PAGE_KINDS } from './page-kinds.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`variants pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = PAGE_KINDS.variants!();
    console.log(`variants: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(1);
    // Measured 100% (1/1: the subset of 206 child ASINs).
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(1);
  });
});
