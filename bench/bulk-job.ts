/**
 * Bulk job benchmark: the same 10,000 product lookups (the replay server's fixture products) once as
 * sequential REST calls (GET /api/retail/product, one after the other, keep-alive) and once as one
 * bulk job (JobService.CreateJob over gRPC, then polled until DONE), in the same run against the
 * same `npm start` stack (one process: core, gateways, watcher; PGlite and the in-memory job system
 * unless BENCH_DATABASE_URL / BENCH_REDIS_URL say otherwise). Prints wall time, items per second and
 * this process's CPU per item of each, their ratios, the job's peak RSS, and the RSS while the
 * 10,000 results are read back as a stream from storage.
 *
 *   node --conditions=source --import tsx bench/bulk-job.ts
 *   BENCH_ITEMS (default 10000), BENCH_REST_ITEMS (sequential REST calls measured, default = BENCH_ITEMS),
 *   JOB_CONCURRENCY / JOB_ITEM_CONCURRENCY / JOB_CHUNK_SIZE (the watcher's, defaults 2 / 4 / 50)
 */
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BatchItemSchema, Domain, JobService, JobStatus } from '@retail/contract';
import { randomBytes } from 'node:crypto';
import { startOneProcess } from '../test/harness/one-process.js';

const ITEMS = Number(process.env.BENCH_ITEMS) || 10_000;
const REST_ITEMS = Number(process.env.BENCH_REST_ITEMS) || ITEMS;
/** Fixture products of the US marketplace (test/fixtures/pages/index.json). */
const ASINS = ['B0FXTUS001', '0316769487'];
const asinOf = (i: number) => ASINS[i % ASINS.length]!;

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

interface Run {
  readonly wallMs: number;
  readonly cpuUs: number;
}

async function measure(work: () => Promise<void>): Promise<Run> {
  const startCpu = cpuUs();
  const start = performance.now();
  await work();
  return { wallMs: performance.now() - start, cpuUs: cpuUs() - startCpu };
}

async function main(): Promise<void> {
  const serviceToken = randomBytes(18).toString('base64url');
  const env: Record<string, string> = {
    SERVICE_TOKEN: serviceToken,
    // The development key's plan (and the free one) without a rate limit, and units for both runs.
    METERING_PLANS: JSON.stringify({ free: 'unlimited', development: 'unlimited' }),
    DEV_UNITS: String(ITEMS + REST_ITEMS + 100),
    LOG_LEVEL: 'silent',
    // PostgreSQL deployments keep the webhook key outside the data directory.
    ...(process.env.BENCH_DATABASE_URL && { DATABASE_URL: process.env.BENCH_DATABASE_URL, WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') }),
    ...(process.env.BENCH_REDIS_URL && { REDIS_URL: process.env.BENCH_REDIS_URL }),
  };
  const running = await startOneProcess(env);
  const { stack } = running;
  try {
    const key = { 'API-KEY': stack.devKey };
    const account = ((await (await fetch(`${stack.url}/api/account`, { headers: key })).json()) as { data: { accountId: string } }).data.accountId;
    const jobs = createClient(JobService, createGrpcTransport({ baseUrl: `http://${stack.watcherAddress}` }));
    const callOptions = { headers: { authorization: `Bearer ${serviceToken}`, 'x-retail-account': account } };
    // Warm-up: the core's parse workers and page cache, the watcher's first statements.
    for (const asin of ASINS) await fetch(`${stack.url}/api/retail/product?asin=${asin}&domain=US`, { headers: key });

    let failures = 0;
    const rest = await measure(async () => {
      for (let i = 0; i < REST_ITEMS; i++) {
        const response = await fetch(`${stack.url}/api/retail/product?asin=${asinOf(i)}&domain=US`, { headers: key });
        if (response.status !== 200) failures++;
        await response.arrayBuffer();
      }
    });

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => void (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const items = Array.from({ length: ITEMS }, (_, i) => create(BatchItemSchema, { request: { case: 'product', value: { asin: asinOf(i), domain: Domain.US } } }));
    let job = { done: 0, unitsCharged: 0, status: JobStatus.QUEUED };
    const bulk = await measure(async () => {
      const { id } = (await jobs.createJob({ items }, callOptions)).retailJob!;
      for (;;) {
        job = (await jobs.getJob({ id }, callOptions)).retailJob!;
        if (job.status !== JobStatus.QUEUED && job.status !== JobStatus.RUNNING) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      (job as { id?: string }).id = id;
    });
    clearInterval(sampler);

    const rssBefore = process.memoryUsage().rss;
    let streamPeak = rssBefore;
    let streamed = 0;
    const stream = await measure(async () => {
      for await (const _ of jobs.streamJobResults({ id: (job as unknown as { id: string }).id }, callOptions)) {
        if (++streamed % 500 === 0) streamPeak = Math.max(streamPeak, process.memoryUsage().rss);
      }
    });

    // The same results as REST downloads (NDJSON and CSV), read as they arrive, the process's RSS sampled while they stream.
    const downloads: string[] = [];
    for (const format of ['ndjson', 'csv'] as const) {
      let bytes = 0;
      let peak = process.memoryUsage().rss;
      const before = peak;
      const run = await measure(async () => {
        const response = await fetch(`${stack.url}/api/retail/jobs/${(job as unknown as { id: string }).id}/results?format=${format}`, { headers: key });
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.byteLength;
          peak = Math.max(peak, process.memoryUsage().rss);
        }
      });
      downloads.push(`REST download (${format}): ${mb(bytes)} MB in ${(run.wallMs / 1000).toFixed(1)} s, RSS ${mb(before)} MB before, ${mb(peak)} MB at most while streaming`);
    }

    const perItem = (run: Run, n: number) => ({ ms: run.wallMs / n, cpuUs: run.cpuUs / n, perSecond: (n * 1000) / run.wallMs });
    const r = perItem(rest, REST_ITEMS);
    const b = perItem(bulk, ITEMS);
    const lines = [
      `items: ${ITEMS} (REST: ${REST_ITEMS}, ${failures} non-200); job ${JobStatus[job.status]}, ${job.done} done, ${job.unitsCharged} units charged`,
      `sequential REST: ${(rest.wallMs / 1000).toFixed(1)} s, ${r.perSecond.toFixed(0)} items/s, ${r.cpuUs.toFixed(0)} µs CPU per item`,
      `bulk job:        ${(bulk.wallMs / 1000).toFixed(1)} s, ${b.perSecond.toFixed(0)} items/s, ${b.cpuUs.toFixed(0)} µs CPU per item, peak RSS ${mb(peakRss)} MB`,
      `ratio job / REST: wall time per item ${(b.ms / r.ms).toFixed(2)}, CPU per item ${(b.cpuUs / r.cpuUs).toFixed(2)}`,
      `results streamed back from storage: ${streamed} in ${(stream.wallMs / 1000).toFixed(1)} s, RSS ${mb(rssBefore)} MB before, ${mb(streamPeak)} MB at most while streaming`,
      ...downloads,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await running.stop();
  }
}

await main();
