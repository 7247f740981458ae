/**
 * The stub core in its own process for bench/rest.ts: answers GetProduct with the product JSON
 * given on stdin (as the real core does on a cache hit: no marketplace work), so the benchmark
 * measures the gateway's path, with the core's CPU off the gateway's event loop as in production.
 */
import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { CacheStatus, GetProductResponseSchema, ProductSchema } from '@retail/contract';
import { startStubCore } from '@retail/gateway-shared/testing/stub-core';
import { SERVICE_TOKEN } from '../test/harness/stack.js';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const record = JSON.parse(input, (_k, v: unknown) => (v === null ? undefined : v)) as JsonValue;
const product = fromJson(ProductSchema, record, { ignoreUnknownFields: true });
const response = create(GetProductResponseSchema, { retailProduct: product, meta: { cache: CacheStatus.HIT } });
const core = await startStubCore({ serviceToken: SERVICE_TOKEN, handlers: { GetProduct: () => response } });
console.log(core.address);
process.on('SIGTERM', () => void core.close().finally(() => process.exit(0)));
