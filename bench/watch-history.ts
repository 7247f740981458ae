/**
 * Product history at scale on real PostgreSQL (docs/engineering-watches.md "Storage"): 10 M snapshot rows
 * (1,150 products × a year of hourly points, generated in SQL), then one product's year as a chart
 * asks for it (maxPoints 500, downsampled in SQL) and in full (8,760 points), through the store.
 * With --compare the same rows are copied into one unpartitioned table to measure the alternatives:
 * BRIN on `at` alone, and a btree on (product_id, at); and one month's retention as DELETE vs DROP.
 *
 *   node --conditions=source --import tsx bench/watch-history.ts [--products 1150] [--samples 200] [--compare]
 *
 * Works in a throw-away database on 127.0.0.1:5432 and drops it at the end (also on failure).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPostgresDatabase, openWatchStore, type Database, type WatchStore } from '../watcher/src/store/index.js';
import { ensurePartitionsFrom } from '../watcher/src/store/partitions.js';
import { createTestDatabase, postgresMissing } from '../test/harness/postgres.js';

const { values } = parseArgs({
  options: { products: { type: 'string', default: '1150' }, samples: { type: 'string', default: '200' }, compare: { type: 'boolean', default: false } },
});
const productCount = Number(values.products);
const samples = Number(values.samples);
const YEAR_START = new Date('2025-01-01T00:00:00Z');
const YEAR_END = new Date('2025-12-31T23:00:00Z');

const missing = await postgresMissing();
if (missing) {
  console.error(missing);
  process.exit(0);
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const mb = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} kB` : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** A year of hourly snapshots for every product, one month per statement, in arrival (time) order. */
async function load(db: Database): Promise<void> {
  await db.query(`INSERT INTO products (domain, asin) SELECT 'US', 'B' || lpad(n::text, 9, '0') FROM generate_series(1, $1::integer) AS n`, [productCount]);
  await ensurePartitionsFrom(db, YEAR_START, 12);
  for (let month = 0; month < 12; month++) {
    const from = new Date(Date.UTC(2025, month, 1));
    const to = new Date(Date.UTC(2025, month + 1, 1));
    await db.query(
      `INSERT INTO snapshots (product_id, at, retrieved_at, price, price_currency, list_price, list_price_currency, in_stock,
         buybox_seller_id, rating, ratings_total, best_sellers_rank, best_sellers_category, offer_count)
       SELECT p.id, t, t - interval '2 minutes',
         round((10 + p.id % 90 + 3 * sin(extract(epoch FROM t) / 604800 + p.id))::numeric, 2), 'USD',
         (20 + p.id % 90)::numeric, 'USD', (extract(hour FROM t)::integer + p.id) % 11 <> 0,
         'A' || (p.id + extract(doy FROM t)::integer / 30) % 5 || 'SELLER', 3.5 + (p.id % 15) / 10.0,
         1000 + p.id + extract(doy FROM t)::integer, 1 + (p.id * 37 + extract(doy FROM t)::integer) % 50000, 'Kitchen', 1 + p.id % 12
       FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 hour', interval '1 hour') AS t CROSS JOIN products p
       ORDER BY t, p.id`,
      [from, to],
    );
    process.stderr.write(`  loaded ${month + 1}/12 months\r`);
  }
  process.stderr.write('\n');
  await db.query('VACUUM ANALYZE snapshots');
  await db.query('VACUUM ANALYZE products');
}

/** Sizes of a table, over all its partitions when partitioned. */
async function sizes(db: Database, table: string): Promise<{ rows: number; heap: number; indexes: number }> {
  const [row] = await db.query<{ rows: number; heap: number; indexes: number }>(
    `SELECT (SELECT count(*) FROM ${table})::integer AS rows,
       sum(pg_table_size(relid))::float8 AS heap, sum(pg_indexes_size(relid))::float8 AS indexes
     FROM (SELECT relid FROM pg_partition_tree($1::regclass) UNION SELECT $1::regclass) AS tree`,
    [table],
  );
  return row!;
}

/** p50/p95 of `query` over `samples` random products (each sample most likely a product not read before). */
async function latency(query: (asin: string) => Promise<number>): Promise<{ p50: number; p95: number; points: number }> {
  const times: number[] = [];
  let points = 0;
  for (let i = 0; i < samples; i++) {
    const asin = 'B' + String(1 + Math.floor(Math.random() * productCount)).padStart(9, '0');
    const started = performance.now();
    points = await query(asin);
    times.push(performance.now() - started);
  }
  return { p50: pct(times, 50), p95: pct(times, 95), points };
}

async function storeLatencies(store: WatchStore) {
  const history = (maxPoints?: number) => (asin: string) =>
    store.snapshots.history({ domain: 'US', asin, from: YEAR_START, to: YEAR_END, ...(maxPoints && { maxPoints }) }).then((points) => points.length);
  await latency(history(500)); // warm: connections, plans
  return { downsampled: await latency(history(500)), full: await latency(history()) };
}

/** The alternatives, on an unpartitioned copy of the same rows. */
async function compare(db: Database): Promise<void> {
  const [, copyMs] = await timed(() => db.query(`CREATE TABLE snapshots_flat AS SELECT * FROM snapshots ORDER BY at, product_id`));
  const [, brinMs] = await timed(() => db.query(`CREATE INDEX snapshots_flat_brin ON snapshots_flat USING brin (at)`));
  await db.query('VACUUM ANALYZE snapshots_flat');
  const byProduct = (asin: string) =>
    db.query(
      `SELECT count(*)::integer AS n FROM snapshots_flat WHERE product_id = (SELECT id FROM products WHERE domain = 'US' AND asin = $1)
       AND at BETWEEN $2 AND $3`,
      [asin, YEAR_START, YEAR_END],
    ).then((rows) => (rows[0] as { n: number }).n);
  // A BRIN on `at` narrows to the year and nothing else: every row of the year is read, so 5 samples.
  const brinTimes: number[] = [];
  for (let i = 0; i < 5; i++) brinTimes.push((await timed(() => byProduct('B000000001')))[1]);
  const brinOnly = { p50: pct(brinTimes, 50), p95: pct(brinTimes, 95) };
  const [, btreeMs] = await timed(() => db.query(`CREATE INDEX snapshots_flat_product_at ON snapshots_flat (product_id, at)`));
  await db.query('ANALYZE snapshots_flat');
  const btree = await latency(byProduct);
  const flat = await sizes(db, 'snapshots_flat');
  const [brinSize] = await db.query<{ bytes: number }>(`SELECT pg_relation_size('snapshots_flat_brin')::float8 AS bytes`);
  const [, deleteMs] = await timed(() => db.query(`DELETE FROM snapshots_flat WHERE at < '2025-02-01T00:00:00Z'`));
  const [, vacuumMs] = await timed(() => db.query('VACUUM snapshots_flat'));
  const [, dropMs] = await timed(() => db.query(`SELECT watcher_snapshot_partitions_drop_before('2025-02-01T00:00:00Z')`));
  console.log('\n| unpartitioned copy | value |\n|---|---|');
  console.log(`| copy of ${flat.rows.toLocaleString('en-US')} rows | ${seconds(copyMs)} |`);
  console.log(`| heap / all indexes (BRIN + btree) | ${mb(flat.heap)} / ${mb(flat.indexes)} (BRIN alone ${mb(brinSize!.bytes)}, built in ${seconds(brinMs)}; btree built in ${seconds(btreeMs)}) |`);
  console.log(`| one product's year, BRIN on at only (count) | p50 ${brinOnly.p50.toFixed(0)} ms, p95 ${brinOnly.p95.toFixed(0)} ms |`);
  console.log(`| one product's year, btree (product_id, at) (count) | p50 ${btree.p50.toFixed(1)} ms, p95 ${btree.p95.toFixed(1)} ms |`);
  console.log(`| retention of one month: DELETE + VACUUM (unpartitioned) | ${seconds(deleteMs)} + ${seconds(vacuumMs)} |`);
  console.log(`| retention of one month: DROP partition | ${dropMs.toFixed(0)} ms |`);
}

const target = await createTestDatabase('watcher_bench');
const db = createPostgresDatabase({ connectionString: target.url, maxConnections: 2 });
try {
  const store = await openWatchStore(db, { clock: () => new Date('2025-12-31T23:30:00Z'), snapshotRetentionDays: 3650 });
  const [, loadMs] = await timed(() => load(db));
  const size = await sizes(db, 'snapshots');
  const { downsampled, full } = await storeLatencies(store);
  console.log(`| snapshots (12 monthly partitions) | value |\n|---|---|`);
  console.log(`| rows | ${size.rows.toLocaleString('en-US')} (${productCount} products × 8,760 hours) |`);
  console.log(`| load (INSERT … SELECT generate_series, 12 statements) + VACUUM ANALYZE | ${seconds(loadMs)} |`);
  console.log(`| heap / indexes | ${mb(size.heap)} / ${mb(size.indexes)} |`);
  console.log(`| one product's year, maxPoints 500 (${downsampled.points} points), ${samples} random products | p50 ${downsampled.p50.toFixed(1)} ms, p95 ${downsampled.p95.toFixed(1)} ms |`);
  console.log(`| one product's year, every point (${full.points} points) | p50 ${full.p50.toFixed(1)} ms, p95 ${full.p95.toFixed(1)} ms |`);
  if (values.compare) await compare(db);
} finally {
  await db.close();
  await target.drop();
}
