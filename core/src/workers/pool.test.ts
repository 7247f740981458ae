import { readFileSync } from 'node:fs';
import { ErrorReason } from '@retail/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { runParser } from './parser-registry.js';
import { createParsePool } from './pool.js';

const fixture = readFileSync(new URL('../../../test/fixtures/pages/pages/com/product/dp-B0FXTUS001-modern-espresso.html', import.meta.url), 'utf8');

describe('createParsePool', () => {
  const pool = createParsePool({ size: 2 });
  afterAll(() => pool.close());

  it('parses on a worker thread exactly as in-process', async () => {
    const args = { domain: 'US' as const, asin: 'B0FXTUS001' };
    const [a, b] = await Promise.all([pool.parse('product', fixture, args), pool.parse('stock', fixture, args)]);
    expect(a).toEqual(runParser('product', fixture, args));
    expect(b).toEqual(runParser('stock', fixture, args));
    expect((a as { product: { title: string } }).product.title).toContain('Acme Barista Pro');
  });

  it('queues more tasks than workers and answers each', async () => {
    const args = { domain: 'US' as const, asin: 'B0FXTUS001' };
    const titles = await Promise.all(Array.from({ length: 6 }, () => pool.parse<{ product: { title: string } }>('product', fixture, args)));
    expect(new Set(titles.map((t) => t.product.title)).size).toBe(1);
  });

  it("a parser's CoreError comes back as a CoreError with its reason and public message", async () => {
    const error = await pool.parse('product', '<html><body>nothing</body></html>', { domain: 'US', asin: 'B0FXTUS001' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CoreError', reason: ErrorReason.UPSTREAM_ERROR });
    expect((error as Error).message).toMatch(/could not read/);
  });

  it('size 0 parses in-process', async () => {
    const inline = createParsePool({ size: 0 });
    const value = await inline.parse('sales', fixture, { domain: 'US' });
    expect(value).toEqual(runParser('sales', fixture, { domain: 'US' }));
  });
});
