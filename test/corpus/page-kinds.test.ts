import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusEntry } from '../replay/corpus-index.js';
import { OVERALL_THRESHOLD, PER_FIELD_THRESHOLD, ratio } from './page-kind-harness.js';
import { PAGE_KINDS } from './page-kinds.js';
import { corpusDirFromEnv } from './score.js';

/*
 * Every page kind of the corpus but product (product.test.ts) against its goldens, each held to the
 * product test's bar: all fields ≥ 0.99, every field ≥ 0.9. A kind that drops fails CI, and so does
 * a kind the corpus gains without a reader here. Longer lists than a golden lists (best sellers and
 * deals return every item of the page's data) are reported, not held (page-kind-harness.ts).
 */
const dir = corpusDirFromEnv();
const skip = 'skip' in dir ? dir.skip : undefined;
if (skip) console.warn(`page-kind corpus tests skipped: ${skip}`);

describe.skipIf(skip !== undefined)(`every page kind of the corpus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('has a reader here for every kind of the corpus but product', () => {
    const entries = JSON.parse(readFileSync(join('dir' in dir ? dir.dir : '', 'index.json'), 'utf8')) as CorpusEntry[];
    const kinds = new Set(entries.filter((e) => e.golden && !e.operation.startsWith('product')).map((e) => e.operation));
    expect([...kinds].filter((kind) => PAGE_KINDS[kind] === undefined)).toEqual([]);
  });

  for (const [kind, { minPages, run }] of Object.entries(PAGE_KINDS)) {
    it(`${kind}: matches the goldens, every field at least ${PER_FIELD_THRESHOLD} and all at least ${OVERALL_THRESHOLD}`, () => {
      const result = run();
      console.log(`${kind}: ${result.cases.length} pages\n${result.table}`);
      for (const miss of result.misses) {
        console.log(`  ${result.longerLists.includes(miss) ? 'longer list' : 'miss'} ${miss.caseId} ${miss.path}: expected ${JSON.stringify(miss.expected)} got ${JSON.stringify(miss.actual)}`);
      }
      expect(result.cases.length).toBeGreaterThanOrEqual(minPages);
      expect(ratio(result.held.overall)).toBeGreaterThanOrEqual(OVERALL_THRESHOLD);
      for (const [field, tally] of result.held.byField) expect([field, ratio(tally) >= PER_FIELD_THRESHOLD]).toEqual([field, true]);
    });
  }
});
