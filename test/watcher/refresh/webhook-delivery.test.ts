/**
 * Events to a real HTTPS receiver: the refresh creates the deliveries, the delivery processor runs on
 * the in-memory job twin (timers the test moves, network real), and the receiver verifies every
 * signature with the `standardwebhooks` library. The receiver is down for two attempts first.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeteringInstance } from '@retail/metering';
import type { Condition } from '../../../watcher/src/model.js';
import { createMemoryJobSystem, type JobSystem } from '../../../watcher/src/queue/index.js';
import { createDeliveryProcessor, createRefreshProcessor, DELIVERY_QUEUE } from '../../../watcher/src/refresh/index.js';
import type { WatchStore } from '../../../watcher/src/store/index.js';
import { createWebhookSender, generateWebhookSecret, sealSecret, type WebhookSender } from '../../../watcher/src/webhooks/index.js';
import { secretKey } from '../../../watcher/src/webhooks/secret-box.js';
import { makeTestCertificate, startTestReceiver, type TestReceiver } from '../../harness/https-receiver.js';
import { fakeTimers } from '../../queue/fake-timers.js';
import { HOUR, newAsin, newWatch, openTestMetering, openTestStore, PRICE_STORY, runOf, scriptedReader, START } from './fixtures.js';
import { until } from '../../harness/until.js';

let store: WatchStore;
let metering: MeteringInstance;
let receiver: TestReceiver;
let sender: WebhookSender;
let jobs: JobSystem;
let receiverDown = true;
const answered: string[] = [];
const certificate = makeTestCertificate();

beforeAll(async () => {
  ({ store } = await openTestStore());
  ({ metering } = await openTestMetering());
  receiver = await startTestReceiver(certificate, (request, response) => {
    if (receiverDown) return void response.writeHead(503).end();
    answered.push(request.headers['webhook-id']!);
    response.writeHead(204).end();
  });
  sender = createWebhookSender({ policy: { allowPrivateTargets: true }, trustedCa: certificate.cert });
}, 60_000);

afterAll(async () => {
  await jobs?.close();
  await sender?.close();
  await receiver?.close();
  await metering?.close();
  await store?.close();
});

/** Waits (in real time: the network is real) until `check` holds. */
/**
 * A watch with a webhook to `port`, its delivery worker and its refresh processor on `system`: what
 * the single-scenario tests below set up alike.
 */
async function watchWithWebhook(system: JobSystem, time: ReturnType<typeof fakeTimers>, port: number, conditions: Condition[], concurrency: number) {
  const keyring = { current: secretKey(randomBytes(32)), retired: [] };
  const watchId = randomUUID();
  const { accountId } = await metering.admin.createAccount({ units: 10 });
  const asin = newAsin();
  await newWatch(store, accountId, asin, {
    id: watchId,
    conditions,
    webhook: { url: `https://localhost:${port}/events`, secretCiphertext: sealSecret(keyring, generateWebhookSecret(), watchId) },
  });
  const delivery = createDeliveryProcessor({ store, keyring, sender, now: time.now });
  system.work(DELIVERY_QUEUE, delivery.process, { concurrency, onFinalFailure: delivery.onFinalFailure });
  const refresh = createRefreshProcessor({ store, meter: metering.meter, reader: scriptedReader(PRICE_STORY), deliveries: system.queue(DELIVERY_QUEUE) });
  const rows = async () => (await store.deliveries.listForWatch(accountId, watchId, { limit: 10 })).items;
  return { accountId, asin, watchId, refresh, rows };
}

describe('webhook deliveries of refresh events', () => {
  it('reach a receiver that was down for a while, later, signed, once each, oldest first', async () => {
    const time = fakeTimers(START);
    jobs = createMemoryJobSystem({ timers: time.timers });
    const keyring = { current: secretKey(randomBytes(32)), retired: [] };
    const secret = generateWebhookSecret();
    const watchId = randomUUID();
    const { accountId } = await metering.admin.createAccount({ units: 10 });
    const asin = newAsin();
    await newWatch(store, accountId, asin, {
      id: watchId,
      conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9 }, { type: 'PRICE_DROP_PERCENT', value: 10 }, { type: 'OUT_OF_STOCK' }, { type: 'BACK_IN_STOCK' }],
      webhook: { url: `https://localhost:${receiver.port}/retail-events`, secretCiphertext: sealSecret(keyring, secret, watchId) },
    });
    const deliveries = jobs.queue(DELIVERY_QUEUE);
    const delivery = createDeliveryProcessor({ store, keyring, sender, now: time.now });
    jobs.work(DELIVERY_QUEUE, delivery.process, { concurrency: 1, onFinalFailure: delivery.onFinalFailure });
    const refresh = createRefreshProcessor({ store, meter: metering.meter, reader: scriptedReader(PRICE_STORY), deliveries });
    for (let run = 0; run < 4; run++) await refresh(runOf('US', asin, START + run * HOUR));

    const events = (await store.events.list(accountId, { limit: 100 })).items;
    expect(events).toHaveLength(5);
    const rows = async () => (await store.deliveries.listForWatch(accountId, watchId, { limit: 100 })).items;
    // Newest first in the list: the oldest delivery is the last row.
    const oldestAttempted = (count: number) => async () => (await rows()).at(-1)?.attemptCount === count;

    await time.advance(0);
    await until(oldestAttempted(1), 'the first attempt');
    await time.advance(5_000);
    await until(oldestAttempted(2), 'the second attempt');
    // Only the oldest event was tried while the receiver was down: the later ones wait behind it.
    expect((await rows()).map((row) => row.attemptCount)).toEqual([0, 0, 0, 0, 2]);
    expect(receiver.received).toHaveLength(2);

    receiverDown = false;
    await time.advance(30_000);
    await until(async () => (await rows()).every((row) => row.status === 'DELIVERED'), 'every delivery');

    expect(answered).toEqual(events.map((event) => event.id));
    const verifier = new Webhook(secret);
    for (const request of receiver.received) {
      const payload = verifier.verify(request.body, request.headers) as { id: string; watchId: string; type: string };
      expect(payload.watchId).toBe(watchId);
      expect(payload.id).toBe(request.headers['webhook-id']);
    }
    expect(receiver.received).toHaveLength(7);

    // A refresh re-run creates no second delivery and sends nothing again.
    await refresh(runOf('US', asin, START + 3 * HOUR));
    await time.advance(60_000);
    expect(receiver.received).toHaveLength(7);
  }, 60_000);

  it('does not let an event that happens after the receiver came back overtake an earlier one still waiting for its retry', async () => {
    let down = true;
    const order: string[] = [];
    const flaky = await startTestReceiver(certificate, (request, response) => {
      if (down) return void response.writeHead(503).end();
      order.push(request.headers['webhook-id']!);
      response.writeHead(204).end();
    });
    const time = fakeTimers(START);
    const system = createMemoryJobSystem({ timers: time.timers });
    try {
      const { accountId, asin, watchId, refresh, rows } = await watchWithWebhook(system, time, flaky.port, [{ type: 'PRICE_DROP_PERCENT', value: 10 }, { type: 'OUT_OF_STOCK' }], 2);
      await refresh(runOf('US', asin, START));
      await refresh(runOf('US', asin, START + HOUR)); // the price drop
      await time.advance(0);
      await until(async () => (await rows())[0]?.attemptCount === 1, 'the drop to fail once');

      down = false;
      await refresh(runOf('US', asin, START + 2 * HOUR)); // out of stock, while the drop waits 5 s for its retry
      await time.advance(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(order).toEqual([]);
      await time.advance(5_000);
      await until(async () => (await rows()).every((row) => row.status === 'DELIVERED'), 'both deliveries', 15_000);
      const events = (await store.events.list(accountId, { watchId, limit: 10 })).items;
      expect(events.map((event) => event.type)).toEqual(['PRICE_DROP_PERCENT', 'OUT_OF_STOCK']);
      expect(order).toEqual(events.map((event) => event.id));
    } finally {
      await system.close();
      await flaky.close();
    }
  }, 60_000);

  it('gives up at once on a receiver that refuses the request with a 4xx, without retrying', async () => {
    const refusing = await startTestReceiver(certificate, (_, response) => void response.writeHead(410).end());
    const time = fakeTimers(START);
    const system = createMemoryJobSystem({ timers: time.timers });
    try {
      const { asin, refresh, rows } = await watchWithWebhook(system, time, refusing.port, [{ type: 'PRICE_DROP_PERCENT', value: 10 }], 1);
      await refresh(runOf('US', asin, START));
      await refresh(runOf('US', asin, START + HOUR));
      await time.advance(0);
      await until(async () => (await rows())[0]?.status === 'DEAD', 'the delivery to be dead');
      await time.advance(HOUR);
      expect(refusing.received).toHaveLength(1);
      expect((await rows())[0]).toMatchObject({ status: 'DEAD', attemptCount: 1, lastResponseStatus: 410 });
    } finally {
      await system.close();
      await refusing.close();
    }
  }, 60_000);
});
