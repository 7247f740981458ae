/**
 * The real core (grpc-js server, token check, validation) in its own process for bench/rest.ts,
 * with GetProduct answering the product record given on stdin from memory: what a cache hit costs
 * the core, without the page fetch and parse, so the benchmark measures the gateway's own path.
 * GetSalesEstimate answers a fixed rank the same way: the watcher's snapshot reader asks for both
 * (bench/watch-schedule.ts), and without it the real handler would fail for want of a marketplace.
 */
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { CacheStatus, ProductSchema } from '@retail/contract';
import { HANDLERS } from '@retail/core';
import { startCore } from '../test/harness/core.js';
import { SERVICE_TOKEN } from '../test/harness/stack.js';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const record = JSON.parse(input, (_k, v: unknown) => (v === null ? undefined : v)) as JsonValue;
const product = fromJson(ProductSchema, record, { ignoreUnknownFields: true });
const core = await startCore({
  serviceToken: SERVICE_TOKEN,
  handlers: {
    ...HANDLERS,
    GetProduct: async () => ({ retailProduct: product, meta: { cache: CacheStatus.HIT } }),
    GetSalesEstimate: async () => ({ retailProduct: { salesEstimate: { bestSellersRank: 4321n, category: 'Kitchen & Dining' } }, meta: { cache: CacheStatus.HIT } }),
  },
});
console.log(core.address);
process.on('SIGTERM', () => void core.close().finally(() => process.exit(0)));
