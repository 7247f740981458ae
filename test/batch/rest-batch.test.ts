/**
 * `POST /api/retail/batch` end to end: the batch of 100 with failures mixed in, as one JSON document
 * and as NDJSON, each item's outcome and the exact charge checked on the Redis ledger, identical
 * items fetched once at the replay server, answers valid against the served OpenAPI document, and
 * the whole-call refusals (400, 401, 402, 405, 429) in the envelope with nothing charged.
 */
import { buildOpenApi } from '@retail/rest';
import { describe, expect, it } from 'vitest';
import { createResponseValidator } from '../contract/openapi-validator.js';
import { BATCH_OF_100, DEDUPED_PAGE, SUCCESSES } from './batch-cases.js';
import { useBatchStack } from './batch-stack.js';
import { postNdjson } from './ndjson-client.js';

const { missing, stack } = useBatchStack();

const PATH = '/api/retail/batch';
const validator = createResponseValidator(buildOpenApi());
const items = BATCH_OF_100.map((c) => c.item);


const post = (key: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack().url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'api-key': key } : {}), ...headers }, body: JSON.stringify(body) });

/** Each entry against its case: status, and the pinned message and path of a failure. */
function expectOutcomes(entries: any[]) {
  expect(entries.map((e) => e.index).sort((a, b) => a - b)).toEqual(BATCH_OF_100.map((_, i) => i));
  for (const entry of entries) {
    const expected = BATCH_OF_100[entry.index]!;
    expect({ index: entry.index, status: entry.status }).toEqual({ index: entry.index, status: expected.status });
    if (expected.status === 200) {
      expect(entry.data.retailProduct).toBeTypeOf('object');
      continue;
    }
    expect(entry.errors[0].code).toBe(expected.status);
    if (expected.message) expect(entry.errors[0].message).toBe(expected.message);
    if (expected.at) expect(entry.errors[0].path).toEqual(['body', 'items', String(entry.index), ...expected.at]);
  }
}

describe.skipIf(missing !== null)('POST /api/retail/batch', () => {
  it('answers a batch of 100 item by item in one JSON document, charged one unit per success on the ledger, identical items fetched once', async () => {
    const { accountId, key } = await stack().account(1_000, 'unlimited');
    const before = { de: stack().fetchesOf(DEDUPED_PAGE.path), captcha: stack().fetchesOf('/dp/B0CAPTCHA1') };
    const res = await post(key, { items });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(validator.check(PATH, 200, body, 'post')).toEqual([]);
    const entries = body.data.retailBatch.items as any[];
    expect(entries.map((e) => e.index)).toEqual(BATCH_OF_100.map((_, i) => i)); // item order
    expectOutcomes(entries);
    expect(SUCCESSES).toBe(60);
    expect(res.headers.get('x-units-charged')).toBe(String(SUCCESSES));
    expect(res.headers.get('x-units-remaining')).toBe(String(1_000 - SUCCESSES));
    expect(await stack().balance(accountId)).toBe(1_000 - SUCCESSES);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('ratelimit-policy')).toBeTruthy();
    expect(stack().fetchesOf(DEDUPED_PAGE.path) - before.de).toBe(1);
    expect(stack().fetchesOf('/dp/B0CAPTCHA1') - before.captcha).toBe(1);
    const usage = await stack().metering.admin.summary(accountId);
    expect(usage.usage.reduce((n, u) => n + u.calls, 0)).toBe(SUCCESSES);
  });

  it('streams the same batch as NDJSON, one valid line per item, the charge in trailers equal to the lines with status 200', async () => {
    const { accountId, key } = await stack().account(1_000, 'unlimited');
    const answer = await postNdjson(`${stack().url}${PATH}`, { 'api-key': key, 'accept-encoding': 'gzip, br' }, { items });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(answer.headers.trailer).toBe('X-Units-Charged, X-Units-Remaining');
    expect(answer.headers['x-units-charged']).toBeUndefined();
    for (const line of answer.lines) expect(validator.checkComponent('RetailBatchEntry', line)).toEqual([]);
    expectOutcomes(answer.lines);
    const ok = answer.lines.filter((l) => l.status === 200).length;
    expect(ok).toBe(SUCCESSES);
    expect(answer.trailers['x-units-charged']).toBe(String(ok));
    expect(answer.trailers['x-units-remaining']).toBe(String(1_000 - ok));
    expect(await stack().balance(accountId)).toBe(1_000 - ok);
  });

  it('writes each NDJSON line as its item completes: two lines arrive while the third item\'s page is still held', async () => {
    const { key } = await stack().account(100, 'unlimited');
    const release = stack().holdPage('/dp/B0FXTJP001');
    const safety = setTimeout(release, 5_000);
    const beforeRelease: number[] = [];
    let released = false;
    const answer = await postNdjson(`${stack().url}${PATH}`, { 'api-key': key }, { items: [{ operation: 'product', params: { asin: 'B0FXTJP001', domain: 'JP' } }, { operation: 'product', params: { asin: '0316769487' } }, { operation: 'product/stock', params: { asin: 'B0FXTUS001' } }] }, (line) => {
      if (!released) beforeRelease.push(line.index);
      if (beforeRelease.length === 2 && !released) {
        released = true;
        clearTimeout(safety);
        release();
      }
    });
    expect(beforeRelease.sort()).toEqual([1, 2]);
    expect(answer.lines.map((l) => l.status)).toEqual([200, 200, 200]);
    expect(answer.trailers['x-units-charged']).toBe('3');
  });

  it('refuses the whole call with 402 when the balance cannot cover one unit per well-formed item, charging and fetching nothing', async () => {
    const { accountId, key } = await stack().account(5, 'unlimited');
    const fetched = stack().replay.requests.length;
    const res = await post(key, { items: [...Array.from({ length: 6 }, () => ({ operation: 'product', params: { asin: 'B0FXTUS001' } })), { operation: 'product', params: { asin: 'B00' } }] });
    const body = (await res.json()) as any;
    expect(res.status).toBe(402);
    expect(body).toMatchObject({ success: false, errors: [{ code: 402 }] });
    expect(validator.check(PATH, 402, body, 'post')).toEqual([]);
    expect(res.headers.get('x-units-charged')).toBe('0');
    expect(await stack().balance(accountId)).toBe(5);
    expect(stack().replay.requests.length).toBe(fetched);
    // Five well-formed items and malformed ones: the malformed are not held, so 5 units cover it.
    const fits = await post(key, { items: [...Array.from({ length: 5 }, () => ({ operation: 'product', params: { asin: 'B0FXTUS001' } })), { operation: 'product', params: { asin: 'B00' } }] });
    expect(fits.status).toBe(200);
    expect(await stack().balance(accountId)).toBe(0);
  });

  it('counts a batch as its items against the rate limit: a batch above the burst admitted on a full bucket into a debt, then 429 for the whole call until the bucket holds it again', async () => {
    // Every step leaves a deficit of seconds, so a slow machine between two requests cannot refill
    // the bucket enough to change an answer (free plan: burst 10, 5 per second).
    const { accountId, key } = await stack().account(1_000);
    const many = { items: Array.from({ length: 25 }, () => ({ operation: 'product', params: { asin: 'B0FXTUS001' } })) };
    const admitted = await post(key, many);
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('ratelimit')).toMatch(/r=0;/);
    expect(admitted.headers.get('x-units-charged')).toBe('25');
    const limited = await post(key, many);
    expect(limited.status).toBe(429);
    expect(validator.check(PATH, 429, await limited.json(), 'post')).toEqual([]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(3); // a debt of 15 tokens, 10 more to hold the batch
    expect(await stack().balance(accountId)).toBe(975);
    const single = await fetch(`${stack().url}/api/retail/product?asin=B0FXTUS001`, { headers: { 'api-key': key } });
    expect(single.status).toBe(429);
    expect(Number(single.headers.get('retry-after'))).toBeGreaterThanOrEqual(2); // the debt of about 15 tokens at 5 per second
    await new Promise((resolve) => setTimeout(resolve, Number(limited.headers.get('retry-after')) * 1_000));
    const again = await post(key, many);
    expect(again.status).toBe(200);
    expect(await stack().balance(accountId)).toBe(950);
  });

  it('refuses a body that is no batch as a whole, in the envelope: 400 for the shape, 401 without a key, 405 for another method', async () => {
    const { key } = await stack().account(100, 'unlimited');
    const cases: [unknown, string, string[]][] = [
      [{ items: [] }, 'items must hold between 1 and 100 entries', ['body', 'items']],
      [{ items: Array.from({ length: 101 }, () => ({ operation: 'product', params: { asin: 'B0FXTUS001' } })) }, 'items must hold between 1 and 100 entries', ['body', 'items']],
      [{}, 'items is required', ['body', 'items']],
      [{ items: {} }, 'items must be a list', ['body', 'items']],
      [{ items: [], extra: 1 }, 'unknown parameter extra', ['body', 'extra']],
      [[{ operation: 'product' }], 'the request body must be a JSON object', ['body']],
    ];
    for (const [body, message, path] of cases) {
      const res = await post(key, body);
      const answer = (await res.json()) as any;
      expect({ status: res.status, answer }).toEqual({ status: 400, answer: { success: false, errors: [{ code: 400, message, path }] } });
      expect(validator.check(PATH, 400, answer, 'post')).toEqual([]);
    }
    expect((await post(undefined, { items })).status).toBe(401);
    const get = await fetch(`${stack().url}${PATH}`, { headers: { 'api-key': key } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
});
