/**
 * The processor of one webhook delivery job: load the delivery with its event, open the watch's
 * secret (sealed bound to the watch id), make one attempt and record it. A retryable failure throws
 * so the queue retries on the webhook schedule (about a day); a permanent one is recorded DEAD and
 * stops the queue (UnrecoverableJobError); the queue's final-failure hook records DEAD for whatever
 * else failed on the last attempt. A delivered or dead row is never sent again by a re-run.
 *
 * Order per watch: a delivery waits (throws without an attempt, so the queue tries it again on its
 * back-off) while an earlier delivery of its watch to the same URL is open. A receiver that was down
 * thus gets a watch's events oldest first. An earlier delivery that dies frees the later ones; one
 * that waited through all its attempts is DEAD and can be redelivered.
 */
import type { JobRun } from '../queue/index.js';
import { UnrecoverableJobError } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import { openSecret, type SecretKeyring, type WebhookSender } from '../webhooks/index.js';
import { DELIVERY_QUEUE, type DeliveryJob } from './refresh-queues.js';

export interface DeliveryDependencies {
  readonly store: WatchStore;
  readonly keyring: SecretKeyring;
  readonly sender: Pick<WebhookSender, 'deliverOnce'>;
  readonly now?: () => number;
}

/** Thrown so the queue tries the delivery again after its next back-off delay. */
export class RetryableDeliveryError extends Error {
  override readonly name = 'RetryableDeliveryError';
}

export function createDeliveryProcessor(deps: DeliveryDependencies) {
  const { store } = deps;
  const now = deps.now ?? Date.now;

  async function dead(deliveryId: string, error: string, responseStatus?: number): Promise<void> {
    await store.deliveries.recordAttempt(deliveryId, { status: 'DEAD', error, ...(responseStatus !== undefined && { responseStatus }) });
  }

  async function process(run: JobRun<DeliveryJob>): Promise<void> {
    const { deliveryId } = run.data;
    const work = await store.deliveries.work(deliveryId);
    // Gone with its watch, or finished by an earlier run of this job: nothing to send.
    if (!work || work.delivery.status === 'DELIVERED' || work.delivery.status === 'DEAD') return;
    if (await store.deliveries.hasEarlierOpen(deliveryId)) {
      if (run.attempt >= run.maxAttempts) await dead(deliveryId, 'an earlier event of the watch was still not delivered');
      throw new RetryableDeliveryError(`delivery ${deliveryId}: waiting for an earlier delivery of the watch`);
    }
    const target = await store.watches.webhookOf(work.delivery.watchId);
    if (!target) {
      await dead(deliveryId, 'the watch no longer has a webhook');
      throw new UnrecoverableJobError(`delivery ${deliveryId}: the watch no longer has a webhook`);
    }
    let secret: string;
    try {
      secret = openSecret(deps.keyring, target.secretCiphertext, work.delivery.watchId);
    } catch (error) {
      await dead(deliveryId, `the secret does not open: ${(error as Error).message}`);
      throw new UnrecoverableJobError(`delivery ${deliveryId}: the secret does not open`);
    }
    const outcome = await deps.sender.deliverOnce({ event: work.event, url: work.delivery.url, secret });
    if (outcome.result === 'delivered') {
      await store.deliveries.recordAttempt(deliveryId, { status: 'DELIVERED', responseStatus: outcome.statusCode ?? 200 });
      return;
    }
    const error = outcome.error ?? outcome.result;
    if (outcome.result === 'permanent') {
      await dead(deliveryId, error, outcome.statusCode);
      throw new UnrecoverableJobError(`delivery ${deliveryId}: ${error}`);
    }
    if (run.attempt >= run.maxAttempts) {
      await dead(deliveryId, error, outcome.statusCode);
    } else {
      const nextAttemptAt = new Date(now() + (DELIVERY_QUEUE.retryDelaysMs[run.attempt - 1] ?? 0));
      await store.deliveries.recordAttempt(deliveryId, { status: 'FAILED', error, nextAttemptAt, ...(outcome.statusCode !== undefined && { responseStatus: outcome.statusCode }) });
    }
    throw new RetryableDeliveryError(`delivery ${deliveryId}: ${error}`);
  }

  /**
   * The dead-letter hook: a last attempt that failed before recording itself (the database was down)
   * still ends DEAD. An already dead or delivered row is left as it is (only open rows take attempts).
   */
  async function onFinalFailure(run: JobRun<DeliveryJob>, error: Error): Promise<void> {
    if (error instanceof UnrecoverableJobError || error instanceof RetryableDeliveryError) return;
    await dead(run.data.deliveryId, `gave up: ${error.message}`.slice(0, 200));
  }

  return { process, onFinalFailure };
}
