/**
 * One REST call in the one-process mode of `npm start` yields ONE trace whose spans cover the gateway,
 * the gRPC call, the core, its page cache lookup and the upstream fetch (issue 7). Spans are
 * collected in memory.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let running: OneProcess;
let stack: RunningStack;

beforeAll(async () => {
  // Registers the W3C propagator and the AsyncLocalStorage context manager, as the SDK does in production.
  provider.register();
  running = await startOneProcess();
  stack = running.stack;
});
afterAll(async () => {
  await running?.stop();
  await provider.shutdown();
  trace.disable();
});

/** The spans of one product call, once the gateway's span has ended. */
async function spansOfOneCall(): Promise<ReturnType<InMemorySpanExporter['getFinishedSpans']>> {
  exporter.reset();
  const res = await fetch(`${stack.url}/api/retail/product?asin=B0FXTUS001`, { headers: { 'API-KEY': stack.devKey } });
  expect(res.status).toBe(200);
  // The gateway's span ends on the response's 'finish', which may come just after the client has
  // read the body: wait (bounded) for it rather than sleeping.
  for (let i = 0; i < 100 && !exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER && s.name.startsWith('GET ')); i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

describe('tracing across the stack', () => {
  it('gives one REST call one trace through gateway, gRPC, core, cache lookup and the upstream fetch', async () => {
    const spans = await spansOfOneCall();
    const traceIds = new Set(spans.map((s) => s.spanContext().traceId));
    expect(traceIds.size, spans.map((s) => s.name).join(', ')).toBe(1);

    const find = (kind: SpanKind, pattern: RegExp) => spans.find((s) => s.kind === kind && pattern.test(s.name));
    const gateway = find(SpanKind.SERVER, /\/api\/retail\/product/);
    const grpcClient = find(SpanKind.CLIENT, /RetailService\/GetProduct/);
    const core = find(SpanKind.SERVER, /^retail\.v1\.RetailService\/GetProduct$/);
    const cache = find(SpanKind.INTERNAL, /^page cache lookup$/);
    const upstream = find(SpanKind.CLIENT, /^upstream GET www\.amazon\.com$/);
    expect({ gateway: !!gateway, grpcClient: !!grpcClient, core: !!core, cache: !!cache, upstream: !!upstream }).toEqual({
      gateway: true,
      grpcClient: true,
      core: true,
      cache: true,
      upstream: true,
    });
    // Parentage: gateway → gRPC client → core → (cache lookup, then upstream).
    const parentOf = (span: typeof core) => span?.parentSpanContext?.spanId;
    expect(parentOf(grpcClient)).toBe(gateway!.spanContext().spanId);
    expect(parentOf(core)).toBe(grpcClient!.spanContext().spanId);
    expect(parentOf(cache)).toBe(core!.spanContext().spanId);
    expect(parentOf(upstream)).toBe(core!.spanContext().spanId);
    expect(cache!.attributes['retail.cache.result']).toBe('miss');
  });

  it('keeps every call its own trace branch when the gateway coalesces them into one BatchLookup', async () => {
    exporter.reset();
    // Two product fields of one GraphQL request resolve in the same event-loop turn: one BatchLookup (CORE_COALESCE is on by default).
    const query = '{ us: retailProduct(asin: "B0FXTUS001", domain: US) { title } de: retailProduct(asin: "B0FXTDE001", domain: DE) { title } }';
    const res = await fetch(`${stack.url}/api/graphql`, { method: 'POST', headers: { 'API-KEY': stack.devKey, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(res.status).toBe(200);
    await res.text();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const clients = spans.filter((s) => s.kind === SpanKind.CLIENT && s.name === 'retail.v1.RetailService/GetProduct');
    const cores = spans.filter((s) => s.kind === SpanKind.SERVER && s.name === 'retail.v1.RetailService/GetProduct');
    expect([clients.length, cores.length]).toEqual([2, 2]);
    // Each core span is the child of its own call's CLIENT span, and says it came coalesced.
    expect(cores.map((s) => s.parentSpanContext?.spanId).sort()).toEqual(clients.map((s) => s.spanContext().spanId).sort());
    expect(cores.map((s) => s.attributes['retail.coalesced'])).toEqual([true, true]);
    expect(spans.filter((s) => s.name.endsWith('/BatchLookup'))).toEqual([]);
  });

  it('shows a repeated call answered by the cache: a hit, and no upstream fetch', async () => {
    const spans = await spansOfOneCall();
    const cache = spans.find((s) => s.name === 'page cache lookup');
    expect(cache?.attributes['retail.cache.result']).toBe('hit');
    expect(spans.filter((s) => s.name.startsWith('upstream ')).map((s) => s.name)).toEqual([]);
  });
});
