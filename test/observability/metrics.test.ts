/**
 * Metrics for Prometheus (issue 7): after calls through the one-process stack, a real Prometheus
 * exposition endpoint (the OpenTelemetry Prometheus exporter over HTTP) shows requests by interface
 * and status, their latency histogram, the units the ledger charged, and the core's upstream
 * outcomes by class, page cache results and circuit state per host.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const exporter = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ readers: [exporter] });
let scrapeServer: Server;
let scrapeUrl: string;
let running: OneProcess;
let stack: RunningStack;

beforeAll(async () => {
  // Registered before the stack is built, as `node --import app/src/telemetry.ts` does in production.
  metrics.setGlobalMeterProvider(provider);
  scrapeServer = createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((done) => scrapeServer.listen(0, '127.0.0.1', done));
  scrapeUrl = `http://127.0.0.1:${(scrapeServer.address() as AddressInfo).port}/metrics`;
  running = await startOneProcess();
  stack = running.stack;
});
afterAll(async () => {
  await running?.stop();
  await new Promise((done) => scrapeServer?.close(done));
  await provider.shutdown();
  metrics.disable();
});

/** The value of one sample line, e.g. `retail_gateway_requests_total{interface="rest",...} 2`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics for Prometheus', () => {
  it('count requests by interface and status, time them, report units charged and the core upstream', async () => {
    const key = { 'API-KEY': stack.devKey };
    expect((await fetch(`${stack.url}/api/retail/product?asin=B0FXTUS001`, { headers: key })).status).toBe(200);
    expect((await fetch(`${stack.url}/api/retail/product?asin=B0FXTUS001`)).status).toBe(401);
    const gql = await fetch(`${stack.url}/api/graphql`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ retailProduct(asin: "B0FXTUS001") { title } }' }),
    });
    expect(gql.status).toBe(200);

    // The gateway records on the response's 'finish', which can follow the client's read by a tick.
    let text = '';
    for (let i = 0; i < 50; i++) {
      text = await (await fetch(scrapeUrl)).text();
      if (sample(text, 'retail_gateway_requests_total', { interface: 'graphql', status: '200' })) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const route = '/api/retail/product';
    expect(sample(text, 'retail_gateway_requests_total', { interface: 'rest', route, status: '200' })).toBe(1);
    expect(sample(text, 'retail_gateway_requests_total', { interface: 'rest', route, status: '401' })).toBe(1);
    expect(sample(text, 'retail_gateway_requests_total', { interface: 'graphql', status: '200' })).toBe(1);
    expect(sample(text, 'retail_gateway_request_duration_seconds_count', { interface: 'rest', route })).toBe(2);
    // Two successful calls (REST and GraphQL), one unit each; the 401 charged nothing.
    expect(sample(text, 'retail_units_charged_total', {})).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^retail_ledger_unavailable_total(\{[^}]*\})? 0$/m);
    expect(text).toMatch(/^retail_ledger_settle_retries_total(\{[^}]*\})? 0$/m);
    // The core: the REST call fetched the page (a miss), the GraphQL call for the same product hit
    // the cache; the marketplace host's circuit is closed.
    const host = 'www.amazon.com';
    expect(sample(text, 'retail_upstream_fetches_total', { host, outcome: 'ok' })).toBe(1);
    expect(sample(text, 'retail_page_cache_results_total', { result: 'miss' })).toBe(1);
    expect(sample(text, 'retail_page_cache_results_total', { result: 'hit' })).toBe(1);
    expect(sample(text, 'retail_upstream_circuit_state', { host })).toBe(0);
  });
});
