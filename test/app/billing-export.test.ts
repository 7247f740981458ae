/**
 * `npm start` exports usage to a billing system when BILLING_EXPORT_URL is set (issue 24): the
 * one-process stack (PGlite record, in-memory job system) sends each charged call of the printed key as
 * a CloudEvent to a receiver on this machine, signed so that the `standardwebhooks` package verifies it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingReceiver } from '../harness/billing-receiver.js';
import { startOneProcess, type OneProcess } from '../harness/one-process.js';
import { freePort } from '../harness/ports.js';
import { generateWebhookSecret } from '../../watcher/src/webhooks/index.js';

const secret = generateWebhookSecret();

describe('the billing export in npm start', () => {
  let receiver: BillingReceiver;
  let app: OneProcess;
  beforeAll(async () => {
    receiver = new BillingReceiver(await freePort(), secret);
    await receiver.start();
    app = await startOneProcess({ BILLING_EXPORT_URL: receiver.url, BILLING_EXPORT_SECRET: secret, BILLING_EXPORT_INTERVAL_MS: '200' });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('sends every charged call of the printed key once, as the account\'s usage event', async () => {
    let charged = 0;
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${app.stack.url}/api/retail/product?asin=B0FXTUS001`, { headers: { 'API-KEY': app.stack.devKey } });
      expect(response.status).toBe(200);
      charged += Number(response.headers.get('x-units-charged'));
    }
    expect(charged).toBe(3);
    const end = Date.now() + 30_000;
    while (receiver.ids().size < 3 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100));
    const events = receiver.batches.flatMap((batch) => batch.events);
    expect(events).toHaveLength(3);
    expect(receiver.unverified).toBe(0);
    for (const event of events) {
      expect(event).toMatchObject({
        specversion: '1.0', type: 'io.retaildata.usage.v1', source: 'retail-data', subject: app.stack.devAccountId,
        data: { accountId: app.stack.devAccountId, operation: 'GetProduct', interface: 'rest', units: 1, calls: 1 },
      });
      expect(event.id).toBe(`${app.stack.devAccountId}/${event.data.holdId}`);
    }
  }, 60_000);
});
