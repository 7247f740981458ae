/**
 * docs/mcp.md's table of MCP answer sizes and the sizes the tool descriptions quote are what the
 * tools answer now on the demo's recordings (the fixtures and the real corpus pages), and the
 * default answers keep the issue-26 goals: none over 8 KB, a typical product record under 1.5 KB.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_DOC, SIZES_MODULE, type ToolSizes, measureAnswerSizes, median, renderSizesModule, renderSizesTable, withSizesTable } from '../../scripts/mcp-answer-sizes.js';

const corpus = process.env.RETAIL_CORPUS;
const hasCorpus = Boolean(corpus && existsSync(join(corpus, 'index.json')));

describe.skipIf(!hasCorpus)('MCP answer sizes (needs RETAIL_CORPUS: the table is measured on the real pages)', () => {
  let sizes: ToolSizes[];
  beforeAll(async () => {
    sizes = await measureAnswerSizes({ ...process.env, RETAIL_CORPUS: corpus });
  }, 60_000); // every recording over REST and MCP: about 10 s

  it('are the table in docs/mcp.md and the sizes in the tool descriptions (run scripts/mcp-answer-sizes.ts when this fails)', () => {
    const doc = readFileSync(MCP_DOC, 'utf8');
    expect(withSizesTable(doc, renderSizesTable(sizes))).toBe(doc);
    expect(readFileSync(SIZES_MODULE, 'utf8')).toBe(renderSizesModule(sizes));
  });

  it('keep every default answer under 8 KB and a typical product record under 1.5 KB', () => {
    for (const s of sizes) expect(Math.max(...s.after), s.tool).toBeLessThanOrEqual(8 * 1024);
    const product = sizes.find((s) => s.tool === 'retail_product')!;
    expect(median(product.record)).toBeLessThan(1.5 * 1024);
  });
});
