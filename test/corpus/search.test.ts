import { SearchProductsResponseSchema } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { parseSearchPage } from '../../core/src/parsers/search.js';
import { corpusSkipReason, ratio, runKind } from './page-kind-harness.js';

const skip = corpusSkipReason();

describe.skipIf(skip !== undefined)(`search pages of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('matches the goldens field by field', () => {
    const run = runKind('search', SearchProductsResponseSchema, (html, marketplace) => ({
      retailProductSearchResults: parseSearchPage(html, { marketplace }),
    }));
    console.log(`search: ${run.cases.length} pages\n${run.table}`);
    expect(run.cases.length).toBeGreaterThanOrEqual(5);
    // Measured 100% (213/213); the threshold sits just under it.
    expect(ratio(run.accuracy.overall)).toBeGreaterThanOrEqual(0.98);
  });
});
