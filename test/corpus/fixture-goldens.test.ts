/**
 * Every golden of the project's own fixtures (test/fixtures/pages, all 13 marketplaces) is met field
 * by field, measured as docs/accuracy.md measures the corpus: the replay server serves the page, a
 * real core answers over gRPC, the wire renderer renders it, the corpus scorer compares. Runs without
 * RETAIL_CORPUS: these are the expectations the parsers must keep in every locale.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CorpusService, callCase, RPC_OF_OPERATION, startCorpusService } from './grpc-corpus.js';
import { loadCorpusCases, scoreCase } from './score.js';

const fixtures = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const cases = loadCorpusCases(fixtures).filter((c) => RPC_OF_OPERATION[c.golden.operation] !== undefined);

let service: CorpusService;
beforeAll(async () => {
  service = await startCorpusService([fixtures]);
});
afterAll(async () => {
  await service?.close();
});

describe('the project fixtures\' goldens through a real core', () => {
  it('cover product, search and best sellers on each of the 13 marketplaces', () => {
    const kinds = new Set(cases.map((c) => `${c.entry.domain} ${c.golden.operation}`));
    for (const domain of ['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL']) {
      for (const kind of ['product', 'search', 'bestsellers']) expect(kinds, `${domain} ${kind}`).toContain(`${domain} ${kind}`);
    }
  });

  it('are met on every field (prices in each marketplace\'s own format included)', async () => {
    const misses: string[] = [];
    for (const c of cases) {
      for (const s of scoreCase(c, await callCase(service, c))) {
        if (!s.ok) misses.push(`${s.caseId} ${s.path}: expected ${JSON.stringify(s.expected)}, got ${JSON.stringify(s.actual)}`);
      }
    }
    expect(misses).toEqual([]);
  });
});
