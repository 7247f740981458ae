/**
 * Bulk jobs through the REST routes of `npm start`'s composition on the production engines: the
 * ledger and the job queues on a real redis-server, the watcher's storage on a real PostgreSQL
 * database, the real watcher and core reading the replay server. Creates in JSON, NDJSON and CSV
 * with malformed items mixed in (each its own 400 result, never the call's), the exact charge on
 * the ledger, the results streamed as NDJSON (batch lines) and CSV, the progress as Server-Sent
 * Events (the `eventsource` client and raw reads), another account's job 404 on every route, and
 * GraphQL and MCP result pages in the same entry shape. Every REST answer is checked against the
 * served OpenAPI document.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { parse as parseCsv } from 'csv-parse/sync';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator, type ResponseValidator } from '../contract/openapi-validator.js';
import { EventSource } from '../harness/event-source.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../harness/postgres.js';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';

const missing = redisMissing() ?? (await postgresMissing());

let redis: RedisServer;
let database: TestDatabase;
let running: OneProcess;
let metering: MeteringInstance;
let validator: ResponseValidator;
let base: string;

beforeAll(async () => {
  if (missing) return;
  redis = await startRedis();
  database = await createTestDatabase('jobs_rest');
  running = await startOneProcess({ REDIS_URL: redis.url, DATABASE_URL: database.url, DEV_UNITS: '10', WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
  base = running.stack.url;
  metering = await createMetering({ redisUrl: redis.url });
  validator = createResponseValidator((await (await fetch(`${base}/api/openapi.json`)).json()) as Record<string, unknown>);
}, 120_000);
afterAll(async () => {
  await metering?.close();
  await running?.stop();
  await database?.drop();
  await redis?.stop();
});

const GOOD = 'B0FXTUS001';
const BOOK = '0316769487';
const ABSENT = 'B0NOTHERE1';

async function account(units: number): Promise<{ accountId: string; key: string }> {
  const { accountId } = await metering.admin.createAccount({ units, plan: 'unlimited' });
  return { accountId, key: (await metering.admin.createKey(accountId, { label: 'jobs' })).key };
}
const balance = async (accountId: string) => (await metering.admin.summary(accountId)).balance;

interface Answer { status: number; headers: Headers; body: any; text: string }

async function call(key: string | undefined, method: string, path: string, body?: string, contentType = 'application/json', extra: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { method, headers: { ...(key ? { 'api-key': key } : {}), ...(body !== undefined ? { 'content-type': contentType } : {}), ...extra }, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The document path of an answer's route, for the validator. */
const documented = (path: string) => path.split('?')[0]!.replace(/\/jobs\/[0-9a-f-]{36}/, '/jobs/{id}');

function valid(answer: Answer, method: string, path: string, mediaType = 'application/json') {
  expect(validator.check(documented(path), answer.status, answer.body, method.toLowerCase(), mediaType)).toEqual([]);
}

async function create(key: string, body: string, contentType: string, query = ''): Promise<any> {
  const answer = await call(key, 'POST', `/api/retail/jobs${query}`, body, contentType);
  expect(answer.status, answer.text).toBe(202);
  valid(answer, 'POST', '/api/retail/jobs');
  expect(answer.headers.get('location')).toBe(`/api/retail/jobs/${answer.body.data.retailJob.id}`);
  expect(answer.headers.get('x-units-charged')).toBe('0');
  return answer.body.data.retailJob;
}

/** Follows the job's events with the `eventsource` client until its `end` event; the events seen. */
function followEvents(key: string, id: string): Promise<Array<{ type: string; id: string; job: any }>> {
  return new Promise((resolve, reject) => {
    const seen: Array<{ type: string; id: string; job: any }> = [];
    const source = new EventSource(`${base}/api/retail/jobs/${id}/events`, { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, 'api-key': key } }) });
    const timer = setTimeout(() => (source.close(), reject(new Error(`no end event for ${id}`))), 60_000);
    const record = (type: string) => (event: MessageEvent) => {
      const data = JSON.parse(event.data as string);
      expect(validator.checkComponent('Job', data.retailJob)).toEqual([]);
      seen.push({ type, id: event.lastEventId, job: data.retailJob });
      if (type === 'end') {
        clearTimeout(timer);
        source.close();
        resolve(seen);
      }
    };
    source.addEventListener('progress', record('progress'));
    source.addEventListener('end', record('end'));
    source.onerror = (error) => {
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(timer);
        reject(new Error(`event stream failed: ${String(error.message)}`));
      }
    };
  });
}

const ndjsonLines = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));

describe.skipIf(missing !== null)(`REST bulk jobs on Redis and PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('JSON: malformed items are their own 400 results, the rest run; the charge equals the successes; results stream as batch lines', async () => {
    const { accountId, key } = await account(50);
    const items = [
      { operation: 'product', params: { asin: GOOD, domain: 'US' } },
      { operation: 'product', params: { asin: 'short' } },
      { operation: 'product/gtin-from-asin', params: { asin: BOOK } },
      { operation: 'nope', params: {} },
      'B0FXTUS001',
      { operation: 'product', params: { asin: ABSENT } },
      { operation: 'product', params: { asin: GOOD }, extra: 1 },
      { operation: 'product', params: { asin: GOOD, domain: 'US' } },
    ];
    const job = await create(key, JSON.stringify({ items, label: 'json' }), 'application/json');
    expect(job).toMatchObject({ status: 'QUEUED', total: 8, label: 'json' });
    const events = await followEvents(key, job.id);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'end', job: { status: 'DONE', total: 8, done: 8, failed: 5, unitsCharged: 3 } });
    expect(last.id).toBe('DONE.8.5.3');
    expect(await balance(accountId)).toBe(47);

    const results = await call(key, 'GET', `/api/retail/jobs/${job.id}/results`);
    expect(results.status).toBe(200);
    expect(results.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(results.headers.get('x-units-charged')).toBe('0');
    const lines = ndjsonLines(results.text);
    for (const line of lines) expect(validator.checkComponent('RetailBatchEntry', line)).toEqual([]);
    expect(lines.map((l) => [l.index, l.status])).toEqual([[0, 200], [1, 400], [2, 200], [3, 400], [4, 400], [5, 404], [6, 400], [7, 200]]);
    expect(lines[0].data.retailProduct.asin).toBe(GOOD);
    expect(lines[2].data.retailProduct).toMatchObject({ asin: BOOK });
    expect(lines[1].errors).toEqual([{ code: 400, message: expect.stringContaining('asin'), path: ['body', 'items', '1', 'params', 'asin'] }]);
    expect(lines[3].errors[0]).toMatchObject({ code: 400, path: ['body', 'items', '3', 'operation'] });
    expect(lines[4].errors[0]).toMatchObject({ code: 400, path: ['body', 'items', '4'] });
    expect(lines[5].errors).toEqual([{ code: 404, message: expect.any(String) }]);

    // The same entries on the REST page, GraphQL and MCP (compact records there).
    const page = await call(key, 'GET', `/api/retail/jobs/${job.id}/items?limit=3`);
    valid(page, 'GET', `/api/retail/jobs/${job.id}/items`);
    expect(page.body.data.retailJobResults.results).toEqual(lines.slice(0, 3));
    const gql = await call(key, 'POST', '/api/graphql', JSON.stringify({
      query: `{ retailJobResults(id: "${job.id}", limit: 6) { results { index status data { retailProduct { asin gtin title } } errors { code message path } } nextCursor } }`,
    }));
    const entries = gql.body.data.retailJobResults.results;
    expect(entries.map((e: any) => [e.index, e.status])).toEqual([[0, 200], [1, 400], [2, 200], [3, 400], [4, 400], [5, 404]]);
    expect(entries[0]).toEqual({ index: 0, status: 200, data: { retailProduct: { asin: GOOD, gtin: null, title: lines[0].data.retailProduct.title } }, errors: null });
    expect(entries[2].data.retailProduct).toMatchObject({ asin: BOOK, gtin: lines[2].data.retailProduct.gtin });
    expect(entries[1]).toEqual({ index: 1, status: 400, data: null, errors: [{ code: 400, message: lines[1].errors[0].message, path: ['items', '1', 'params', 'asin'] }] });
    const mcp = await call(key, 'POST', '/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_job_results', arguments: { id: job.id, limit: 1 } } }), 'application/json', { accept: 'application/json, text/event-stream' });
    const [first] = mcp.body.result.structuredContent.data.retailJobResults.results;
    expect(first).toMatchObject({ index: 0, status: 200, data: { retailProduct: { asin: GOOD } } });
    expect(lines[0].data.retailProduct.imageUrls).toBeDefined();
    expect(first.data.retailProduct.imageUrls).toBeUndefined();
  });

  it('NDJSON and CSV: a line that is not JSON and a row that does not fit are their items\' 400s; CSV downloads as one row per item', async () => {
    const { accountId, key } = await account(50);
    const ndjson = [
      JSON.stringify({ operation: 'product', params: { asin: GOOD } }),
      '{"operation": "product", "params": {',
      '',
      JSON.stringify({ operation: 'product/offers', params: { asin: GOOD, page: 0 } }),
    ].join('\n');
    const fromLines = await create(key, `${ndjson}\n`, 'application/x-ndjson', '?label=lines');
    expect(fromLines).toMatchObject({ total: 3, label: 'lines' });

    const csv = '\uFEFFasin,domain\r\nB0FXTUS001,US\r\nshort,US\r\n"0316769487",US\r\nB0FXTUS001,XX\r\nB0FXTUS001\r\n';
    const fromCsv = await create(key, csv, 'text/csv', '?operation=product');
    expect(fromCsv.total).toBe(5);
    const [linesEnd, csvEnd] = await Promise.all([followEvents(key, fromLines.id), followEvents(key, fromCsv.id)]);
    expect(linesEnd.at(-1)!.job).toMatchObject({ status: 'DONE', done: 3, failed: 2, unitsCharged: 1 });
    expect(csvEnd.at(-1)!.job).toMatchObject({ status: 'DONE', done: 5, failed: 3, unitsCharged: 2 });
    expect(await balance(accountId)).toBe(47);

    const lines = ndjsonLines((await call(key, 'GET', `/api/retail/jobs/${fromLines.id}/results`)).text);
    expect(lines.map((l) => [l.index, l.status])).toEqual([[0, 200], [1, 400], [2, 400]]);
    expect(lines[1].errors[0]).toMatchObject({ message: 'item 1 (a line of the body) is not valid JSON', path: ['body', 'items', '1'] });
    expect(lines[2].errors[0]).toMatchObject({ path: ['body', 'items', '2', 'params', 'page'] });

    const download = await call(key, 'GET', `/api/retail/jobs/${fromCsv.id}/results?format=csv`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="job-${fromCsv.id}.csv"`);
    expect(validator.check('/api/retail/jobs/{id}/results', 200, download.text, 'get', 'text/csv')).toEqual([]);
    const rows = parseCsv<Record<string, string>>(download.text, { columns: true });
    expect(rows.map((r) => [r.index, r.status, r.operation, r.asin])).toEqual([['0', '200', 'product', GOOD], ['1', '400', 'product', ''], ['2', '200', 'product', BOOK], ['3', '400', 'product', ''], ['4', '400', 'product', '']]);
    expect(rows[0]!['price.currency']).toBe('USD');
    expect(rows[1]!.error).toMatch(/asin/);
    expect(rows[4]!.error).toBe('row 5 has 1 cells; the header has 2');
  });

  it('streams a large job\'s results while it still runs, in item order, each item exactly once', async () => {
    const { key } = await account(5_000);
    // Large enough that the job still runs when the first line arrives (about 0.5 s in, the job ends after 2–3 s), also on a loaded machine.
    const size = 3_000;
    const body = Array.from({ length: size }, (_, i) => JSON.stringify({ operation: 'product', params: { asin: i % 2 ? GOOD : BOOK } })).join('\n');
    const job = await create(key, body, 'application/x-ndjson');
    // follow=true: the download waits for results still to come; its first line arrives long before the job ends.
    const answer = await new Promise<{ firstAt: string; lines: any[] }>((resolve, reject) => {
      httpRequest(`${base}/api/retail/jobs/${job.id}/results?follow=true`, { headers: { 'api-key': key } }, (res) => {
        let pending = '';
        let firstAt: Promise<string> | undefined;
        const lines: any[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let end: number;
          while ((end = pending.indexOf('\n')) >= 0) {
            lines.push(JSON.parse(pending.slice(0, end)));
            pending = pending.slice(end + 1);
            firstAt ??= call(key, 'GET', `/api/retail/jobs/${job.id}`).then((a) => a.body.data.retailJob.status as string);
          }
        });
        res.on('end', () => void firstAt!.then((status) => resolve({ firstAt: status, lines }), reject));
        res.on('error', reject);
      }).on('error', reject).end();
    });
    expect(['QUEUED', 'RUNNING']).toContain(answer.firstAt);
    expect(answer.lines.map((l) => l.index)).toEqual(Array.from({ length: size }, (_, i) => i));
    expect(answer.lines.every((l) => l.status === 200)).toBe(true);
    const done = (await call(key, 'GET', `/api/retail/jobs/${job.id}`)).body.data.retailJob;
    expect(done).toMatchObject({ status: 'DONE', done: size, failed: 0, unitsCharged: size });
  }, 120_000);

  it('answers the progress stream to raw readers: ids, an end event, 204 for an ended job whose end the client has', async () => {
    const { key } = await account(10);
    const job = await create(key, JSON.stringify({ items: [{ operation: 'product', params: { asin: GOOD } }] }), 'application/json');
    await followEvents(key, job.id);
    const raw = await call(key, 'GET', `/api/retail/jobs/${job.id}/events`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(raw.headers.get('cache-control')).toContain('no-transform');
    expect(raw.text).toMatch(/^retry: ?2000$/m);
    expect(raw.text).toMatch(/^event: ?end\nid: ?DONE\.1\.0\.1\ndata: ?\{"retailJob":\{"id":"[0-9a-f-]{36}","status":"DONE"/m);
    const again = await call(key, 'GET', `/api/retail/jobs/${job.id}/events`, undefined, undefined, { 'last-event-id': 'DONE.1.0.1' });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
  });

  it('another account\'s job is 404 on every route and interface, and whole-call refusals answer in the envelope', async () => {
    const owner = await account(10);
    const other = await account(10);
    const job = await create(owner.key, JSON.stringify({ items: [{ operation: 'product', params: { asin: GOOD } }] }), 'application/json');
    for (const [method, path] of [['GET', ''], ['DELETE', ''], ['GET', '/items'], ['GET', '/results'], ['GET', '/results?format=csv'], ['GET', '/events']] as const) {
      const answer = await call(other.key, method, `/api/retail/jobs/${job.id}${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
      valid(answer, method, `/api/retail/jobs/${job.id}${path}`);
      expect(answer.body.errors[0].message).toBe('no such job');
    }
    const gql = await call(other.key, 'POST', '/api/graphql', JSON.stringify({ query: `{ retailJob(id: "${job.id}") { id } }` }));
    expect(gql.body.errors[0].extensions.code).toBe(404);
    const mcp = await call(other.key, 'POST', '/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_job_results', arguments: { id: job.id } } }), 'application/json', { accept: 'application/json, text/event-stream' });
    expect(mcp.body.result).toMatchObject({ isError: true, structuredContent: { errors: [{ code: 404 }] } });

    const post = (body: string, type = 'application/json', query = '') => call(owner.key, 'POST', `/api/retail/jobs${query}`, body, type);
    const one = JSON.stringify({ operation: 'product', params: { asin: GOOD } });
    const refusals: Array<[string, Answer, number, string[]?]> = [
      ['no key', await call(undefined, 'POST', '/api/retail/jobs', JSON.stringify({ items: [] }), 'application/json'), 401],
      ['not a job body', await post('<jobs/>', 'application/xml'), 415, ['body']],
      ['an empty job', await post(JSON.stringify({ items: [] })), 400, ['body', 'items']],
      ['items not a list', await post(JSON.stringify({ items: { operation: 'product' } })), 400, ['body', 'items']],
      ['an unknown key', await post(`{"items": [${one}], "labels": "x"}`), 400, ['body', 'labels']],
      ['a CSV without an operation', await post('asin\nB0FXTUS001\n', 'text/csv'), 400, ['body', 'columns']],
      ['a CSV with an unknown column', await post('asin,colour\nB0FXTUS001,red\n', 'text/csv', '?operation=product'), 400, ['body', 'columns', 'colour']],
      ['more than 100,000 items', await post('{}\n'.repeat(100_001), 'application/x-ndjson'), 400, ['body', 'items']],
      ['a webhook the rules refuse', await post(`{"items": [${one}], "webhook": {"url": "http://example.com/hook"}}`), 400, ['body', 'webhook', 'url']],
    ];
    for (const [what, answer, status, path] of refusals) {
      expect([what, answer.status]).toEqual([what, status]);
      expect(answer.body).toMatchObject({ success: false, errors: [{ code: status }] });
      if (path) expect([what, answer.body.errors[0].path]).toEqual([what, path]);
      if (status !== 415) valid(answer, 'POST', '/api/retail/jobs');
    }
    const badId = await call(owner.key, 'GET', '/api/retail/jobs/nope/results');
    expect([badId.status, badId.body.errors[0].path]).toEqual([400, ['path', 'id']]);
    expect(validator.check('/api/retail/jobs/{id}/results', 400, badId.body)).toEqual([]);
    const badFormat = await call(owner.key, 'GET', `/api/retail/jobs/${job.id}/results?format=xml`);
    expect([badFormat.status, badFormat.body.errors[0].path]).toEqual([400, ['query', 'format']]);
    expect(await balance(owner.accountId)).toBe(10 - 1);
  });
});
