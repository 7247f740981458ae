/**
 * docs/grpc.md's Node client, exactly as the page shows it: the code block is copied out of the
 * document into a file inside the repository (so that it resolves the workspace's packages) and run
 * as a separate Node process against `npm start` on the replay server, with the values the start
 * banner prints. Its output must be what the page says it prints.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOC = resolve(ROOT, 'docs/grpc.md');
/** A product the project's fixture pages hold. */
const ASIN = 'B0FXTUS001';

/** The fenced block right after `<!-- example: NAME -->`. */
function exampleBlock(markdown: string, name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(markdown);
  if (!match) throw new Error(`docs/grpc.md has no example block "${name}"`);
  return match[1]!;
}

let running: OneProcess;
const dir = resolve(ROOT, '.tmp/docs-examples');

beforeAll(async () => {
  running = await startOneProcess();
  mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('docs/grpc.md', () => {
  it('shows a Node client that reaches the core and the watcher with the printed token and reads the error detail', async () => {
    const doc = readFileSync(DOC, 'utf8');
    const file = resolve(dir, 'grpc-client.ts');
    writeFileSync(file, exampleBlock(doc, 'grpc-client'));
    const { stack } = running;
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', file], {
      cwd: ROOT,
      timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '',
        SERVICE_TOKEN: stack.serviceToken,
        CORE_ADDRESS: stack.coreAddress,
        WATCHER_ADDRESS: stack.watcherAddress!,
        RETAIL_ACCOUNT: stack.devAccountId,
        ASIN,
      },
    });
    const product = await fetch(`${stack.url}/api/retail/product?asin=${ASIN}`, { headers: { 'API-KEY': stack.devKey } });
    const { title, price } = ((await product.json()) as { data: { retailProduct: { title: string; price: { display: string } } } }).data.retailProduct;
    expect(stdout.trim().split('\n')).toEqual([
      `product: ${title} (${price.display})`,
      'error: InvalidArgument INVALID_ARGUMENT at asin: asin must match ^[A-Za-z0-9]{10}$',
      'watches: from the gRPC example',
    ]);
    // The page shows the same lines (the product's own title and price vary with the data).
    for (const line of stdout.trim().split('\n').slice(1)) expect(doc).toContain(line);
    // The watch is the development account's: the REST gateway lists it for the printed key.
    const watches = await fetch(`${stack.url}/api/retail/watches`, { headers: { 'API-KEY': stack.devKey } });
    const listed = (await watches.json()) as { data: { retailWatches: { watches: { label: string }[] } } };
    expect(listed.data.retailWatches.watches.map((watch) => watch.label)).toEqual(['from the gRPC example']);
  }, 90_000);
});
