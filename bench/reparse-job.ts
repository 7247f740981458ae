/**
 * A re-parse job's pages a second, one page at a time against several (REPARSE_CONCURRENCY), in the
 * same run (docs/page-archive.md, What a re-parse costs): the corpus's US product pages archived
 * (brotli) several times over in a real PostgreSQL (PGlite without one), each with the history point
 * that came from it, and the watcher's reparse processor walking them against a real core over gRPC,
 * writing each page's corrections and cursor as a job does. The core runs in its own process, as
 * deployed (`core/src/main.ts`): in this one it would share the watcher's event loop. Each round is a `--force` job over all
 * the pages (every page sent to the core); the concurrencies take turns, round after round, so a
 * shared machine's load falls on each alike. Reports the median pages a second of each and its ratio
 * to one page at a time.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/reparse-job.ts
 *   (CONCURRENCIES=1,2,4 COPIES=6 ROUNDS=3; PARSE_WORKERS is passed to the core, default its own:
 *   the CPUs less one, 1 to 4)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createCoreClient } from '@retail/gateway-shared';
import { createReparseProcessor, REPARSE_QUEUE } from '../watcher/src/reparse/index.js';
import { createPgliteDatabase, createPostgresDatabase, openWatchStore } from '../watcher/src/store/index.js';
import { launchNode } from '../test/chaos/node-process.js';
import { createTestDatabase, postgresMissing } from '../test/harness/postgres.js';
import { corpusProductPages } from './corpus-product-pages.js';

const CONCURRENCIES = (process.env.CONCURRENCIES ?? '1,2,4').split(',').map(Number);
const COPIES = Number(process.env.COPIES ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const HOUR = 3_600_000;
const SINCE = Date.UTC(2026, 10, 1);

const corpus = corpusProductPages();
const database = (await postgresMissing()) === null ? await createTestDatabase('bench_reparse') : undefined;
const store = await openWatchStore(database ? createPostgresDatabase({ connectionString: database.url }) : await createPgliteDatabase());
const token = randomBytes(24).toString('base64url');
const core = await launchNode({
  entry: 'core/src/main.ts',
  env: { GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', SERVICE_TOKEN: token, UPSTREAM_STARTUP_PROBE: 'false', ...(process.env.PARSE_WORKERS ? { PARSE_WORKERS: process.env.PARSE_WORKERS } : {}) },
  ready: /listening on (127\.0\.0\.1:\d+)/,
});
const client = createCoreClient({ address: core.match, serviceToken: token, deadlineMs: 60_000 });

// The archive: each corpus page COPIES times, an hour apart, each with the point a refresh stored from it.
let pages = 0;
for (let copy = 0; copy < COPIES; copy++) {
  for (const [i, page] of corpus.entries()) {
    const fetchedAt = new Date(SINCE + (copy * corpus.length + i) * HOUR);
    await store.pages.record({
      id: randomUUID(), url: page.url, domain: 'US', kind: 'product', identifier: page.identifier, status: 200, fetchedAt,
      parser: 'product-page@1', contentType: 'text/html', encoding: 'br', body: page.body, reason: 'watch-refresh', missing: [],
    });
    await store.snapshots.record({ domain: 'US', asin: page.identifier, at: fetchedAt, retrievedAt: fetchedAt, unknownFields: ['price'] });
    pages += 1;
  }
}

/** CPU seconds the core's process has used (all its threads: the parse workers too), from /proc (Linux). */
function coreCpuSeconds(): number {
  const fields = readFileSync(`/proc/${core.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (USER_HZ 100)
}

interface Round {
  readonly pagesPerSecond: number;
  /** CPU per page, ms: the core's process, and this one's (the watcher's walk, its pg client). */
  readonly coreCpuMs: number;
  readonly watcherCpuMs: number;
}

async function job(concurrency: number): Promise<Round> {
  const id = randomUUID();
  const created = await store.reparseJobs.create({ id, domain: 'US', kind: 'product', since: new Date(SINCE), force: true });
  if (!created.created) throw new Error('another reparse job is active');
  const processor = createReparseProcessor({ store, core: client, log: () => undefined, concurrency });
  const start = performance.now();
  const coreCpu = coreCpuSeconds();
  const ownCpu = process.cpuUsage();
  await processor({ id, data: { jobId: id }, attempt: 1, maxAttempts: REPARSE_QUEUE.retryDelaysMs.length + 1, dueAt: Date.now() });
  const seconds = (performance.now() - start) / 1000;
  const own = process.cpuUsage(ownCpu);
  const round = { pagesPerSecond: pages / seconds, coreCpuMs: ((coreCpuSeconds() - coreCpu) * 1000) / pages, watcherCpuMs: (own.user + own.system) / 1000 / pages };
  const done = await store.reparseJobs.get(id);
  if (done?.state !== 'done' || done.counts.reparsed !== pages) throw new Error(`job ${id} ended ${JSON.stringify(done)}`);
  return round;
}

await job(1); // warm-up: the parse workers start, the first round's corrections are written
const rates = new Map<number, Round[]>(CONCURRENCIES.map((c) => [c, []]));
for (let round = 0; round < ROUNDS; round++) for (const c of CONCURRENCIES) rates.get(c)!.push(await job(c));

await core.process.stop();
await store.close();
await database?.drop();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const base = median(rates.get(CONCURRENCIES[0]!)!.map((r) => r.pagesPerSecond));
console.log(`${pages} archived pages (${corpus.length} US product pages × ${COPIES}), ${ROUNDS} rounds, ${database ? 'PostgreSQL' : 'PGlite'}, core parse workers ${process.env.PARSE_WORKERS ?? 'default'}, load ${loadavg()[0]!.toFixed(1)}`);
for (const [c, rounds] of rates) {
  const rate = median(rounds.map((r) => r.pagesPerSecond));
  console.log(`  concurrency ${c}: ${rate.toFixed(1)} pages/s (rounds ${rounds.map((r) => r.pagesPerSecond.toFixed(1)).join(', ')}), × ${(rate / base).toFixed(2)} of ${CONCURRENCIES[0]}; `
    + `240,000 pages in ${(240_000 / rate / 3600).toFixed(1)} h; CPU per page: core ${median(rounds.map((r) => r.coreCpuMs)).toFixed(1)} ms, watcher ${median(rounds.map((r) => r.watcherCpuMs)).toFixed(1)} ms`);
}
