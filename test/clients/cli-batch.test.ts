/**
 * `retail --many` over POST /api/retail/batch: a per-product lookup's inputs go in batches of up to
 * 100, counted by a pass-through proxy in front of the one-process stack, with the same output,
 * order, statuses, exit code and progress as one call per input (`--no-batch`); a refusal of the
 * whole batch (402) is every input's answer, a 429 is waited out and the batch sent again.
 */
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '@retail/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliStack, runRetail, startCliStack } from './cli-stack.js';

let stack: CliStack;
let proxy: Server;
let proxyUrl: string;
/** Requests the proxy passed on, by path without the query. */
const calls = new Map<string, number>();

/** Forwards every request to the stack as it is, counting it by path. */
function startCountingProxy(target: URL): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    calls.set(path, (calls.get(path) ?? 0) + 1);
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  process.env.LOG_LEVEL ??= 'silent';
  stack = await startCliStack();
  proxy = await startCountingProxy(new URL(stack.baseUrl));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await stack?.stop();
});

const as = (key: string) => ({ RETAIL_BASE_URL: proxyUrl, RETAIL_API_KEY: key });

/** 150 inputs: a product that exists (200), one that does not (404), an ASIN that is no ASIN (400). */
const KINDS = [['B0FXTDE001', 200], ['B0MISSING1', 404], ['bad!', 400]] as const;
const INPUTS = Array.from({ length: 150 }, (_, i) => KINDS[i % 3]![0]);
const STATUSES = Array.from({ length: 150 }, (_, i) => KINDS[i % 3]![1]);

interface Line {
  input: string;
  status: number;
  data?: { asin: string };
  errors?: { code: number; message: string }[];
}
const linesOf = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as Line);

describe('retail --many in batches', () => {
  it('sends 150 product inputs as two batch calls, writing each input\'s line in input order as one call per input would', async () => {
    const { key, accountId } = await stack.key('cli-open', 1_000);
    calls.clear();
    const batched = await runRetail(['product', '--many', '-', '--domain', 'DE'], as(key), INPUTS.join('\n'));
    expect(Object.fromEntries(calls)).toEqual({ '/api/retail/batch': 2 });
    expect(batched.code).toBe(3);
    const lines = linesOf(batched.stdout);
    expect(lines.map((l) => l.input)).toEqual(INPUTS);
    expect(lines.map((l) => l.status)).toEqual(STATUSES);
    expect(lines.filter((l) => l.status === 200).every((l) => l.data?.asin === 'B0FXTDE001')).toBe(true);
    expect(batched.stderr).toContain('100 of 150 failed');
    // One unit per success, as 50 single calls would have charged.
    expect(await stack.balance(accountId)).toBe(1_000 - 50);

    calls.clear();
    const single = await runRetail(['product', '--many', '-', '--domain', 'DE', '--no-batch', '--concurrency', '16'], as(key), INPUTS.join('\n'));
    expect(Object.fromEntries(calls)).toEqual({ '/api/retail/product': 150 });
    expect(single.code).toBe(batched.code);
    const singles = linesOf(single.stdout);
    // The same answers; an error's path names where the value was (the query, or the batch item).
    const comparable = (l: Line) => ({ input: l.input, status: l.status, data: l.data, messages: l.errors?.map((e) => [e.code, e.message]) });
    expect(lines.map(comparable)).toEqual(singles.map(comparable));
    expect(await stack.balance(accountId)).toBe(1_000 - 100);
  });

  it('advances the progress bar per input, to 150', async () => {
    const { key } = await stack.key('cli-open', 1_000);
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let drawn = '';
    terminal.setEncoding('utf8').on('data', (text: string) => (drawn += text));
    calls.clear();
    const code = await runCli(['product', '--many', '-', '--domain', 'DE'], { stdout: new PassThrough(), stderr: terminal, stdin: Readable.from([INPUTS.join('\n')]), env: as(key) });
    expect(code).toBe(3);
    expect(calls.get('/api/retail/batch')).toBe(2);
    expect(drawn).toMatch(/[\u2588\u2591]{30} 150\/150 \| 100 failed/);
  });

  it('answers every input of a batch the whole call refuses with that refusal (402), charging nothing', async () => {
    const { key, accountId } = await stack.key('cli-open', 3);
    const inputs = Array.from({ length: 5 }, () => 'B0FXTDE001');
    calls.clear();
    const run = await runRetail(['gtin-from-asin', '--many', '-', '--domain', 'DE'], as(key), inputs.join('\n'));
    expect(Object.fromEntries(calls)).toEqual({ '/api/retail/batch': 1 });
    expect(run.code).toBe(3);
    const lines = linesOf(run.stdout);
    expect(lines.map((l) => [l.input, l.status])).toEqual(inputs.map((input) => [input, 402]));
    expect(lines[0]!.errors?.[0]?.code).toBe(402);
    expect(await stack.balance(accountId)).toBe(3);
  });

  it('waits out a batch the rate limit refuses (429) and sends it again', async () => {
    // cli-burst refills 50 calls/s in bursts of 2, and a batch counts as its items: the first batch
    // of 100 is admitted on the full bucket and leaves it about 2 s in debt, so the second batch,
    // sent by the same run right after, is refused until the debt is paid. One run, so that the
    // refusal does not depend on how fast a second process starts.
    const { key, accountId } = await stack.key('cli-burst', 200);
    const inputs = Array.from({ length: 102 }, () => 'B0FXTDE001');
    calls.clear();
    const run = await runRetail(['gtin-from-asin', '--many', '-', '--domain', 'DE', '--concurrency', '1'], as(key), inputs.join('\n'));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/rate limited \d+ times: held back \d+ s in all, as Retry-After asked/);
    expect(calls.get('/api/retail/batch')).toBeGreaterThanOrEqual(3);
    expect(calls.size).toBe(1);
    expect(linesOf(run.stdout).map((l) => l.status)).toEqual(inputs.map(() => 200));
    expect(await stack.balance(accountId)).toBe(200 - 102);
  });

  it('keeps one call per input for an operation a batch cannot run', async () => {
    const { key } = await stack.key('cli-open', 1_000);
    calls.clear();
    const run = await runRetail(['search', '--many', '-', '--domain', 'DE'], as(key), 'espresso\nkettle\n');
    expect(calls.get('/api/retail/batch')).toBeUndefined();
    expect(linesOf(run.stdout).map((l) => l.input)).toEqual(['espresso', 'kettle']);
    expect([...calls.values()].reduce((a, b) => a + b, 0)).toBe(2);
  });
});
