/**
 * The three bodies of a job as readJobBody reads them from a stream: the same items whatever way the
 * bytes are cut into chunks, a malformed item (or line, or row) as that item's refusal at its
 * position, and the refusals of the whole call (413 past the limit, the body's outline, the CSV
 * header, more than 100,000 items read no further than the one too many).
 */
import { Readable } from 'node:stream';
import { ErrorReason, SkipOnIncident } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { type JobBodyInput, readJobBody } from './job-body.js';

/** The text as a stream of `size`-byte chunks (cutting tokens, lines and UTF-8 sequences anywhere). */
function chunked(text: string, size = 7): Readable {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

async function read(format: JobBodyInput['format'], text: string, extra: Partial<JobBodyInput> = {}) {
  const body = await readJobBody({ format, body: chunked(text), ...extra });
  if (!body.ok) return body;
  const { items, rejectedItems, params } = body.draft;
  return {
    ok: true,
    items: items.map((item) => [item.request.case, (item.request.value as { asin?: string; gtin?: string }).asin ?? (item.request.value as { gtin?: string }).gtin]),
    rejected: rejectedItems.map((r) => [r.index, r.error?.message, r.error?.fieldPath, r.error?.reason === ErrorReason.INVALID_ARGUMENT]),
    params,
  };
}

describe('a JSON job body, streamed', () => {
  it('hands over every item in order, however the bytes are cut, with the malformed ones refused at their positions', async () => {
    const text = JSON.stringify({ label: 'é-label', items: [
      { operation: 'product', params: { asin: 'B0FXTUS001', domain: 'US' } },
      { operation: 'product', params: { asin: 'short' } },
      'B0FXTUS001',
      { operation: 'product/asin-from-gtin', params: { gtin: '9780316769488' } },
      { operation: 'product', params: { asin: 'B0FXTUS001' }, colour: 'red' },
    ] });
    for (const size of [1, 3, 64, 4096]) {
      const body = await readJobBody({ format: 'json', body: chunked(text, size) });
      expect(body.ok && body.draft.items.length).toBe(2);
    }
    expect(await read('json', text)).toEqual({
      ok: true,
      items: [['product', 'B0FXTUS001'], ['asinFromGtin', '9780316769488']],
      rejected: [
        [1, expect.stringContaining('asin'), ['params', 'asin'], true],
        [2, 'items[2] must be an object', [], true],
        [4, 'unknown parameter items[4].colour', [], true],
      ],
      params: { label: 'é-label' },
    });
  });

  it.each([
    ['not an object', '[1, 2]', 400, ['body']],
    ['items not a list', '{"items": {"a": 1}}', 400, ['body', 'items']],
    ['an unknown key', '{"items": [], "labels": "x"}', 400, ['body', 'labels']],
    ['not JSON', '{"items": [1,', 400, ['body']],
    ['no items', '{"items": []}', 400, ['body', 'items']],
  ])('refuses %s as a whole', async (_what, text, status, path) => {
    expect(await read('json', text)).toMatchObject({ ok: false, status, path });
  });

  it('answers 413 past the limit without reading the rest', async () => {
    const text = JSON.stringify({ items: Array.from({ length: 50 }, () => ({ operation: 'product', params: { asin: 'B0FXTUS001' } })) });
    expect(await read('json', text, { limitBytes: 200 })).toMatchObject({ ok: false, status: 413 });
  });
});

describe('an NDJSON job body', () => {
  it('reads one item per line, skips blank lines, and refuses a line that is not JSON as its item', async () => {
    const text = '{"operation":"product","params":{"asin":"B0FXTUS001"}}\r\n\n{"operation":\n{"operation":"product","params":{"asin":"0316769487"}}';
    expect(await read('ndjson', text)).toMatchObject({
      ok: true,
      items: [['product', 'B0FXTUS001'], ['product', '0316769487']],
      rejected: [[1, 'item 1 (a line of the body) is not valid JSON', [], true]],
    });
  });

  it('refuses the 100,001st item as a whole-call 400 without reading further', async () => {
    expect(await read('ndjson', '{}\n'.repeat(100_001), { limitBytes: 1e9 })).toMatchObject({ ok: false, status: 400, path: ['body', 'items'] });
  });
});

describe('a CSV job body', () => {
  it('reads RFC 4180 rows under a header (BOM, quotes, CRLF), the operation per column or per query', async () => {
    const perColumn = '\uFEFFoperation,asin,gtin\r\nproduct,"B0FXTUS001",\r\nproduct/asin-from-gtin,,9780316769488\r\nproduct,B0FXTUS001,9780316769488\r\nproduct\r\n';
    expect(await read('csv', perColumn)).toMatchObject({
      ok: true,
      items: [['product', 'B0FXTUS001'], ['asinFromGtin', '9780316769488']],
      rejected: [[2, expect.stringContaining('gtin'), expect.any(Array), true], [3, 'row 4 has 1 cells; the header has 3', [], true]],
    });
    const perQuery = 'asin,domain,page\nB0FXTUS001,US,\nB0FXTUS001,US,2\n';
    expect(await read('csv', perQuery, { operation: 'product/offers' })).toMatchObject({ ok: true, items: [['offers', 'B0FXTUS001'], ['offers', 'B0FXTUS001']], rejected: [] });
  });

  it('carries skipOnIncident into each item that names it (a column, as any parameter), and refuses a bad one at its row', async () => {
    const body = await readJobBody({ format: 'csv', body: chunked('operation,asin,skipOnIncident\nproduct,B0FXTUS001,MAJOR\nproduct,B0FXTUS001,\nproduct,B0FXTUS001,sometimes\n') });
    if (!body.ok) throw new Error('the body was refused');
    expect(body.draft.items.map((item) => (item.request.value as { skipOnIncident?: number }).skipOnIncident)).toEqual([SkipOnIncident.MAJOR, SkipOnIncident.UNSPECIFIED]);
    expect(body.draft.rejectedItems.map((r) => [r.index, r.error?.message])).toEqual([[2, 'skipOnIncident must be one of DEGRADED, MAJOR']]);
  });

  it.each([
    ['no operation', 'asin\nB0FXTUS001\n', undefined, ['body', 'columns']],
    ['the operation twice', 'operation,asin\nproduct,B0FXTUS001\n', 'product', ['query', 'operation']],
    ['an unknown operation', 'asin\nB0FXTUS001\n', 'product/nope', ['query', 'operation']],
    ['an unknown column', 'asin,colour\nB0FXTUS001,red\n', 'product', ['body', 'columns', 'colour']],
    ['a repeated column', 'asin,asin\nB0FXTUS001,B0FXTUS001\n', 'product', ['body', 'columns', 'asin']],
    ['no parameter column', 'operation\nproduct\n', undefined, ['body', 'columns']],
    ['an unclosed quote', 'asin\n"B0FXTUS001\n', 'product', ['body']],
    ['no header', '', 'product', ['body']],
  ])('refuses %s as a whole', async (_what, text, operation, path) => {
    expect(await read('csv', text, operation ? { operation } : {})).toMatchObject({ ok: false, status: 400, path });
  });
});
