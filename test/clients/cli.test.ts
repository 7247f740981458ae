/**
 * `retail`, the command-line client, run as a process against the one-process stack (real gateway,
 * core, replay server, Redis ledger): help derived from the registry, JSON when piped, tables on
 * request, the error envelope with an exit code per class, and many mode honouring 429s.
 */
import { PassThrough, Readable } from 'node:stream';
import { COMMANDS, flagName, runCli } from '@retail/cli';
import { registryOperation } from '@retail/gateway-shared/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/redis.js';
import { type CliStack, runRetail, startCliStack } from './cli-stack.js';

let stack: CliStack;
let open: { key: string; accountId: string };

beforeAll(async () => {
  stack = await startCliStack();
  open = await stack.key('cli-open', 1_000);
});
afterAll(async () => {
  await stack?.stop();
});

const as = (key: string) => ({ RETAIL_BASE_URL: stack.baseUrl, RETAIL_API_KEY: key });

describe('retail help and usage', () => {
  // These two go through cli/bin/retail.js as a user's shell runs it: its streams and exit codes pass through.
  it('lists every operation of the registry, and each command lists its parameters with their rules', async () => {
    const general = await runRetail(['--help'], {}, '', 'bin');
    expect(general.code).toBe(0);
    for (const command of COMMANDS) expect(general.stdout).toContain(`  ${command.name} `);
    expect(general.stdout).toContain('RETAIL_API_KEY');

    const product = await runRetail(['product', '--help'], {}, '', 'bin');
    expect(product.code).toBe(0);
    for (const p of registryOperation('GetProduct').parameters) expect(product.stdout).toContain(`--${flagName(p)} <value>`);
    expect(product.stdout).toMatch(/--domain <value>\s+Marketplace code\. \(one of US, UK, CA, DE/);
    expect(product.stdout.replace(/\s+/g, ' ')).toContain('matching ^[A-Za-z0-9]{10}$');
    expect(product.stdout).toContain('REST: GET /api/retail/product (one unit per successful call)');
  });

  it('refuses an unknown flag in one line with exit 2, sending nothing', async () => {
    const before = await stack.balance(open.accountId);
    const run = await runRetail(['product', 'B0FXTDE001', '--domian', 'DE'], as(open.key), '', 'bin');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("error: unknown option '--domian' (Did you mean --domain?)\n");
    expect(await stack.balance(open.accountId)).toBe(before);
  });

  it('refuses a JSON parameter that is not JSON, and a missing key, with exit 2', async () => {
    const badJson = await runRetail(['watch-create', 'B0FXTDE001', '--webhook', '{url:'], as(open.key));
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toBe('error: --webhook takes JSON: {url: is not\n');
    const noKey = await runRetail(['product', 'B0FXTDE001'], { RETAIL_BASE_URL: stack.baseUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^error: no API key: pass --key or set RETAIL_API_KEY/);
  });
});

describe('retail <operation>', () => {
  it('prints the REST body as JSON when piped, charging one unit', async () => {
    const before = await stack.balance(open.accountId);
    const run = await runRetail(['product', 'B0FXTDE001', '--domain', 'DE'], as(open.key));
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as { data: { retailProduct: { asin: string; price: { currency: string } } } };
    expect(body.data.retailProduct.asin).toBe('B0FXTDE001');
    expect(body.data.retailProduct.price.currency).toBe('EUR');
    expect(await stack.balance(open.accountId)).toBe(before - 1);
  });

  it('prints a table with --table, prices as the marketplace displays them', async () => {
    const run = await runRetail(['product', '--asin', 'B0FXTDE001', '--domain', 'DE', '--table'], as(open.key));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/│ title\s+│ Acme Kaffeevollautomat KV-900/);
    expect(run.stdout).toMatch(/│ price\s+│ 1\.226,00\u00a0€/);
    expect(run.stdout).toMatch(/technicalSpecifications \(3\)/);
  });

  it('shows the error envelope with exit 3 for a refusal: JSON when piped, lines on stderr for a table', async () => {
    const piped = await runRetail(['product', 'B0NOTFOUND'], as(open.key));
    expect(piped.code).toBe(3);
    expect(JSON.parse(piped.stdout)).toEqual({ success: false, errors: [{ code: 404, message: 'the marketplace has no such product' }] });

    const table = await runRetail(['product-offers', 'B0FXTDE001', '--domain', 'DE', '--page', '500', '--table'], as(open.key));
    expect(table.code).toBe(3);
    expect(table.stdout).toBe('');
    expect(table.stderr.split('\n')[0]).toBe('error 400: page must be between 1 and 100 (query.page)');
    expect(table.stderr).toMatch(/request id: [0-9a-f-]{36}/);

    const badKey = await runRetail(['product', 'B0FXTDE001', '--table'], as('rk_not_a_key'));
    expect(badKey.code).toBe(3);
    expect(badKey.stderr.split('\n')[0]).toBe('error 401: API key is invalid or missing');
  });

  it('exits 4 for a failure of the service and 5 when nothing answers', async () => {
    const blocked = await runRetail(['product', 'B0CAPTCHA1', '--table'], as(open.key));
    expect(blocked.code).toBe(4);
    expect(blocked.stderr).toMatch(/^error 503: /);
    const closed = await freePort();
    const nobody = await runRetail(['product', 'B0FXTDE001', '--base', `http://127.0.0.1:${closed}`], as(open.key));
    expect(nobody.code).toBe(5);
    expect(nobody.stderr).toBe(`error: cannot reach http://127.0.0.1:${closed}: ECONNREFUSED\n`);
  });

  it('sends a watch operation\'s parameters as a typed JSON body and its id in the path', async () => {
    const created = await runRetail(['watch-create', 'B0FXTDE001', '--domain', 'DE', '--interval-seconds', '7200', '--label', 'from the cli'], as(open.key));
    expect(created.code).toBe(0);
    const watch = (JSON.parse(created.stdout) as { data: { retailWatch: { id: string; intervalSeconds: number; label: string } } }).data.retailWatch;
    expect(watch).toMatchObject({ intervalSeconds: 7200, label: 'from the cli' });
    const deleted = await runRetail(['watch-delete', watch.id], as(open.key));
    expect(deleted.code).toBe(0);
    const again = await runRetail(['watch-get', watch.id], as(open.key));
    expect(again.code).toBe(3);
  });
});

describe('retail --many', () => {
  it('writes one NDJSON line per input line, in input order, and exits with the worst class', async () => {
    const run = await runRetail(['product', '--many', '-', '--domain', 'DE'], as(open.key), 'B0FXTDE001\n# a comment\n\nB0MISSING1\nbad!\n');
    expect(run.code).toBe(3);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { input: string; status: number });
    expect(lines.map((l) => [l.input, l.status])).toEqual([['B0FXTDE001', 200], ['B0MISSING1', 404], ['bad!', 400]]);
    expect(run.stderr).toContain('2 of 3 failed');
  });

  it('waits out 429s as Retry-After asks and gets every answer, one call per input', async () => {
    const tight = await stack.key('cli-tight', 100);
    const inputs = Array.from({ length: 6 }, () => 'B0FXTDE001').join('\n');
    // --no-batch: six calls on a plan of 2/s with bursts of 2 (batched, they are one call: cli-batch.test.ts).
    const run = await runRetail(['gtin-from-asin', '--many', '-', '--domain', 'DE', '--concurrency', '4', '--no-batch'], as(tight.key), inputs);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { status: number; data: { gtin: string } });
    expect(lines).toHaveLength(6);
    expect(lines.every((l) => l.status === 200 && l.data.gtin === '4006381333931')).toBe(true);
    expect(run.stderr).toMatch(/rate limited \d+ times: held back \d+ s in all, as Retry-After asked/);
    expect(await stack.balance(tight.accountId)).toBe(100 - 6);
  });

  it('draws a progress bar on stderr when stderr is a terminal', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let drawn = '';
    terminal.setEncoding('utf8').on('data', (text: string) => (drawn += text));
    const stdout = new PassThrough();
    const code = await runCli(['gtin-from-asin', '--many', '-', '--domain', 'DE'], { stdout, stderr: terminal, stdin: Readable.from(['B0FXTDE001\nB0MISSING1\n']), env: as(open.key) });
    expect(code).toBe(3);
    expect(drawn).toMatch(/[\u2588\u2591]{30} 2\/2 \| 1 failed/);
  });
});
