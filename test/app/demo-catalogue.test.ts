/**
 * The demo catalogue keeps itself honest: `npm run demo`'s stack (startDemoStack: the replay server
 * over the project's fixtures, plus the corpus when RETAIL_CORPUS is set) serves /demo/catalogue.json,
 * and every request it lists, called through REST, answers 200; every error example answers the
 * status it announces. A key on the unlimited plan (created on the same Redis ledger) keeps the
 * plan's rate limit out of the measurement.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeteringFromEnv, type MeteringInstance } from '@retail/metering';
import { type DemoStack, startDemoStack } from '../../app/src/demo-stack.js';
import { DEMO_CATALOGUE_JSON_PATH } from '../../app/src/demo-catalogue/paths.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

interface ListedEntry {
  domain: string;
  operation: string;
  identifier: string;
  url: string;
  curl: string;
  recording: string;
  status?: number;
}
/** Page bookkeeping, which an empty answer has too. */
const PAGING = new Set(['pageInfo', 'currentPage', 'totalPages', 'totalResults', 'hasNextPage', 'hasPrevPage', 'page']);

/** How many leaf values of an answer say something: non-empty strings, non-zero numbers, true. */
function filledValues(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + filledValues(item), 0);
  if (value && typeof value === 'object') return Object.entries(value).reduce((sum, [name, item]) => sum + (PAGING.has(name) ? 0 : filledValues(item)), 0);
  return value === '' || value === 0 || value === false || value === null || value === undefined ? 0 : 1;
}

interface CatalogueJson {
  demo: boolean;
  counts: Record<string, Record<string, number>>;
  entries: ListedEntry[];
  errors: ListedEntry[];
}

describe.skipIf(missing !== null)('the demo catalogue against npm run demo\'s stack', () => {
  let redis: RedisServer;
  let metering: MeteringInstance;
  let demo: DemoStack;
  let key: string;
  let catalogue: CatalogueJson;
  const dataDir = mkdtempSync(join(tmpdir(), 'demo-catalogue-watcher-'));

  beforeAll(async () => {
    redis = await startRedis();
    const env = { PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'silent', WATCHER_DATA_DIR: dataDir, LEDGER_REDIS_URL: redis.url, RETAIL_CORPUS: process.env.RETAIL_CORPUS ?? join(dataDir, 'no-corpus') };
    demo = await startDemoStack(env);
    metering = await createMeteringFromEnv({ LEDGER_REDIS_URL: redis.url });
    const { accountId } = await metering.admin.createAccount({ units: 100_000, plan: 'unlimited' });
    key = (await metering.admin.createKey(accountId, { label: 'catalogue test' })).key;
    const response = await fetch(`${demo.stack.url}${DEMO_CATALOGUE_JSON_PATH}`);
    expect(response.status).toBe(200);
    catalogue = (await response.json()) as CatalogueJson;
  });
  afterAll(async () => {
    await demo?.stop();
    await metering?.close();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists a product, a search and a best-seller request for each of the 13 marketplaces, each with a link and a curl', () => {
    expect(catalogue.demo).toBe(true);
    for (const domain of ['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL']) {
      for (const operation of ['GetProduct', 'SearchProducts', 'GetBestSellers']) expect(catalogue.counts[domain]?.[operation], `${domain} ${operation}`).toBeGreaterThan(0);
    }
    for (const entry of catalogue.entries) {
      expect(entry.url.startsWith(`${demo.stack.url}/api/retail/`)).toBe(true);
      expect(entry.curl).toBe(`curl -s -H "API-KEY: $KEY" '${entry.url}'`);
    }
    const total = Object.values(catalogue.counts).flatMap((row) => Object.values(row)).reduce((a, b) => a + b, 0);
    expect(total).toBe(catalogue.entries.length);
  });

  it('answers 200 for every listed request through REST, each error example with its status, and every operation with real content at least once', async () => {
    const wrong: string[] = [];
    const contentByOperation = new Map<string, number>();
    const call = async (entry: ListedEntry, want: number) => {
      const response = await fetch(entry.url, { headers: { 'API-KEY': key } });
      const body = await response.text();
      if (response.status !== want) wrong.push(`${entry.recording} ${entry.operation} ${entry.identifier}: ${response.status} ${body.slice(0, 200)}`);
      if (want === 200) contentByOperation.set(entry.operation, Math.max(contentByOperation.get(entry.operation) ?? 0, filledValues(JSON.parse(body))));
    };
    // A few at a time, as a client would; the core parses each page once and shares it across operations.
    const queue = [...catalogue.entries];
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) await call(entry, 200);
    }));
    // Blocked pages open no circuit that the listed entries would meet: they are called last.
    for (const entry of catalogue.errors) await call(entry, entry.status!);
    expect(wrong).toEqual([]);
    expect(catalogue.entries.length).toBeGreaterThanOrEqual(140);
    // Every operation the catalogue lists answers, at least once, with something to look at: two
    // values that are not empty, zero, false or paging bookkeeping (an empty review list has none;
    // a GTIN lookup has the two identifiers).
    const thin = [...contentByOperation].filter(([, filled]) => filled < 2);
    expect(thin).toEqual([]);
    expect(contentByOperation.size).toBe(17);
  }, 240_000);
});
