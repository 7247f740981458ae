/**
 * Everything the README and docs/ show a reader to paste works on a fresh clone: every curl, grpcurl,
 * `npx retail` command and GraphQL document, read out of the pages (extract.ts), runs against
 * `npm run demo`'s stack with no corpus (only the project's own fixture pages) and the development key
 * the banner prints. A call fails the test when it meets a status that is not 2xx (gRPC OK) and that
 * its page does not announce (`→ 404`), so an example whose identifier the demo does not know, or
 * whose shape the service refuses, is caught with its file and line.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoStack, startDemoStack } from '../../app/src/demo-stack.js';
import { DEMO_CATALOGUE_JSON_PATH } from '../../app/src/demo-catalogue/paths.js';
import { type DocExample, extractExamples } from './extract.js';
import { type CreatedIds, environmentFor, runGraphqlExample, runShellExample, unannounced } from './run-example.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', ...readdirSync(resolve(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
/** Where the console and GraphiQL suggest a product to a reader. */
const PLACEHOLDER_FILES = ['gateways/console/src/public/index.html', 'gateways/console/src/public/watch-form.js', 'gateways/graphql/src/public/graphiql-start.js'];
/** An ASIN as the pages write one: B0 and eight more, or an ISBN-10. */
const ASIN = /\b(?:B0[A-Z0-9]{8}|\d{9}[\dX])\b/g;
const examplesByPage = PAGES.map((page) => [page, extractExamples(readFileSync(resolve(ROOT, page), 'utf8'), page)] as const).filter(([, examples]) => examples.length > 0);

describe('the examples of the README and docs/ against npm run demo without the corpus', () => {
  let demo: DemoStack;
  const dir = mkdtempSync(join(tmpdir(), 'docs-examples-'));

  beforeAll(async () => {
    demo = await startDemoStack({ PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'silent', WATCHER_DATA_DIR: join(dir, 'watcher'), RETAIL_CORPUS: join(dir, 'no-corpus'), DEV_UNITS: '100000' });
  });
  afterAll(async () => {
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the calls of every interface in the pages (curl, GraphQL, MCP, gRPC, CLI, watches, jobs, batch)', () => {
    const all = examplesByPage.flatMap(([, examples]) => examples);
    const shell = all.filter((e) => e.kind === 'shell').map((e) => e.text);
    expect(all.filter((e) => e.kind === 'graphql').length).toBeGreaterThanOrEqual(3);
    for (const needle of ['/api/graphql', '/api/mcp', 'grpcurl', 'npx retail', '/api/retail/watches', '/api/retail/jobs', '/api/retail/batch']) {
      expect(shell.some((text) => text.includes(needle)), needle).toBe(true);
    }
  });

  it('names only products the demo answers, in the examples, the console\'s placeholders and GraphiQL\'s first query', async () => {
    // The recordings' error examples count: a page may show what a missing product does (B0NOTFOUND).
    const catalogue = (await (await fetch(`${demo.stack.url}${DEMO_CATALOGUE_JSON_PATH}`)).json()) as { entries: { identifier: string }[]; errors: { identifier: string }[] };
    const known = new Set([...catalogue.entries, ...catalogue.errors].map((entry) => /^asin=(\w+)$/.exec(entry.identifier)?.[1]).filter(Boolean));
    const named = [
      ...examplesByPage.flatMap(([, examples]) => examples.filter((e) => !e.announced.includes(404)).map((e) => [`${e.file}:${e.line}`, e.text] as const)),
      ...PLACEHOLDER_FILES.map((file) => [file, readFileSync(resolve(ROOT, file), 'utf8')] as const),
    ].flatMap(([where, text]) => [...text.matchAll(ASIN)].map((match) => `${where} ${match[0]}`));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((entry) => !known.has(entry.split(' ')[1]))).toEqual([]);
  });

  it.each(examplesByPage)('%s: every call answers 2xx or what the page announces', async (_page, examples: readonly DocExample[]) => {
    const ids: CreatedIds = new Map();
    const env = environmentFor(demo.stack, dir);
    const failures: string[] = [];
    for (const example of examples) {
      const outcome = example.kind === 'graphql' ? await runGraphqlExample(example, demo.stack, ids) : await runShellExample(example, demo.stack, env, ids);
      const problems = unannounced(example, outcome);
      if (problems.length) failures.push(`${example.file}:${example.line} answered ${problems.join(', ')}\n${example.text}\n→ ${outcome.output.trim()}`);
    }
    expect(failures.join('\n\n')).toBe('');
  }, 180_000);
});
