/**
 * The billing export's metrics (issue 24) on a real Prometheus exposition endpoint: after calls through
 * the one-process stack with BILLING_EXPORT_URL set, the exported count, the pending count, the lag
 * and the last success are the export's, read from the record.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../watcher/src/webhooks/index.js';
import { BillingReceiver } from '../harness/billing-receiver.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';
import { freePort } from '../harness/ports.js';

const exporter = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ readers: [exporter] });
const secret = generateWebhookSecret();
let scrapeServer: Server;
let scrapeUrl: string;
let receiver: BillingReceiver;
let running: OneProcess;

beforeAll(async () => {
  metrics.setGlobalMeterProvider(provider);
  scrapeServer = createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((done) => scrapeServer.listen(0, '127.0.0.1', done));
  scrapeUrl = `http://127.0.0.1:${(scrapeServer.address() as AddressInfo).port}/metrics`;
  receiver = new BillingReceiver(await freePort(), secret);
  await receiver.start();
  running = await startOneProcess({ BILLING_EXPORT_URL: receiver.url, BILLING_EXPORT_SECRET: secret, BILLING_EXPORT_INTERVAL_MS: '200' });
});
afterAll(async () => {
  await running?.stop();
  await receiver?.stop();
  await new Promise((done) => scrapeServer?.close(done));
  await provider.shutdown();
  metrics.disable();
});

const value = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('billing export metrics', () => {
  it('report what the billing system acknowledged, what waits and when it last succeeded', async () => {
    const startedAt = Date.now() / 1000;
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${running.stack.url}/api/retail/product?asin=B0FXTUS001`, { headers: { 'API-KEY': running.stack.devKey } });
      expect(response.status).toBe(200);
    }
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await (await fetch(scrapeUrl)).text();
      if (value(text, 'retail_billing_export_exported_events') === 2 && value(text, 'retail_billing_export_pending_events') === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(receiver.ids().size).toBe(2);
    expect(value(text, 'retail_billing_export_exported_events')).toBe(2);
    expect(value(text, 'retail_billing_export_pending_events')).toBe(0);
    expect(value(text, 'retail_billing_export_lag_seconds')).toBe(0);
    expect(value(text, 'retail_billing_export_failures')).toBe(0);
    expect(value(text, 'retail_billing_export_last_success_timestamp_seconds')).toBeGreaterThanOrEqual(Math.floor(startedAt) - 1);
  }, 60_000);
});
