/**
 * Prints the demo catalogue's counts as a Markdown table (requests per marketplace and operation),
 * from the same recordings `npm run demo` serves: the project's fixtures, plus the corpus when
 * RETAIL_CORPUS points at one. docs/demo.md quotes its output.
 *
 *   node --conditions=source --import tsx scripts/demo-catalogue-table.ts
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx scripts/demo-catalogue-table.ts
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API_REGISTRY } from '@retail/gateway-shared';
import { countsOf } from '../app/src/demo-catalogue/model.js';
import { buildDemoCatalogue } from '../test/replay/catalogue.js';
import { loadCorpusEntries } from '../test/replay/corpus-index.js';

const dirs = [resolve(import.meta.dirname, '../test/fixtures/pages')];
const corpus = process.env.RETAIL_CORPUS;
if (corpus && existsSync(join(corpus, 'index.json'))) dirs.push(resolve(corpus));
const recordings = dirs.flatMap((dir) => loadCorpusEntries(dir).map((entry) => ({ entry, dir })));
const catalogue = buildDemoCatalogue(recordings, [], { reviewsSession: Boolean(process.env.REVIEWS_SESSION_COOKIE) });
const counts = countsOf(catalogue);
const operations = API_REGISTRY.filter((op) => catalogue.entries.some((e) => e.operation === op.name));
const cell = (n: number | undefined) => (n ? String(n) : '–');
console.log(`| operation (REST path) | ${catalogue.marketplaces.join(' | ')} | all |`);
console.log(`|---|${catalogue.marketplaces.map(() => '---').join('|')}|---|`);
for (const op of operations) {
  const row = catalogue.marketplaces.map((m) => counts[m]?.[op.name]);
  console.log(`| \`${op.restPath.replace('/api/retail', '')}\` | ${row.map(cell).join(' | ')} | ${row.reduce<number>((a, b) => a + (b ?? 0), 0)} |`);
}
const totals = catalogue.marketplaces.map((m) => Object.values(counts[m] ?? {}).reduce((a, b) => a + b, 0));
console.log(`| **all** | ${totals.join(' | ')} | **${catalogue.entries.length}** |`);
console.log(`\n${catalogue.errors.length} error examples; sources: ${dirs.join(', ')}`);
