/**
 * One delivery attempt of one event (or a job's end) to one webhook. The queue's job processor calls `deliverOnce`
 * and acts on its outcome (retry per retry-schedule.ts, stop, or dead-letter); nothing here retries.
 *
 * The attempt: re-check the URL under the current policy, sign the body, POST it through an undici
 * Agent whose every connection resolves through the guarded lookup, follow no redirect, stop at the
 * total timeout, read at most a few KB of the answer and drop it.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { WatchEvent } from '../model.js';
import type { TargetPolicy } from './address-rules.js';
import { guardedLookup, systemResolve, type ResolveHost } from './guarded-lookup.js';
import { outcomeOfError, outcomeOfStatus, shortError, type DeliveryOutcome } from './outcome.js';
import { webhookPayload } from './payload.js';
import { signatureHeaders, type SignatureHeaders } from './signer.js';
import { checkWebhookUrl } from './url-check.js';

/** What one attempt sends: a watch event, or another message (a bulk job's end) with its own id. */
export type WebhookDelivery = (
  | { readonly event: WatchEvent }
  /** `id` is the Standard Webhooks message id (the same on every attempt); `payload` the JSON body. */
  | { readonly message: { readonly id: string; readonly payload: unknown } }
  /**
   * A body already serialized, with its own media type (the billing export's CloudEvents batches) and
   * headers of the receiver's own (an ingestion API's `authorization`); they never replace ours.
   */
  | { readonly message: { readonly id: string; readonly body: string; readonly contentType: string; readonly headers?: Readonly<Record<string, string>> } }
) & {
  readonly url: string;
  /**
   * The plain `whsec_` secret, opened from the store just before the attempt. Never put it in the
   * queue's job data: Redis is not where secrets rest.
   */
  readonly secret: string;
};

export interface WebhookSenderOptions {
  readonly policy: TargetPolicy;
  /** The whole attempt: connection, TLS, request, answer. */
  readonly timeoutMs?: number;
  /** DNS for the guarded lookup; tests substitute a rebinding resolver. */
  readonly resolve?: ResolveHost;
  /** Tests only: PEM certificates trusted instead of the system's roots (for a self-signed receiver). */
  readonly trustedCa?: string | Buffer;
  readonly now?: () => Date;
}

export interface WebhookSender {
  deliverOnce(delivery: WebhookDelivery): Promise<DeliveryOutcome>;
  /** Closes the kept-alive connections; call at shutdown. */
  close(): Promise<void>;
}

/** Long enough for a receiver that stores the event before answering, short enough that a stuck one does not hold a worker. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** The answer is only read so the connection ends cleanly; a receiver's page of HTML is not kept. */
export const MAX_RESPONSE_BYTES = 4096;

export const WEBHOOK_USER_AGENT = 'RetailDataWatcher-Webhooks/1.0 (+https://www.standardwebhooks.com)';

/** Idle connections to a receiver are kept a few seconds: bursts of events reuse them, quiet receivers do not hold sockets. */
const KEEP_ALIVE_MS = 4000;

/** Reads up to MAX_RESPONSE_BYTES and destroys the rest; an error while draining does not change the outcome. */
async function drain(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body) {
      read += chunk.length;
      if (read >= MAX_RESPONSE_BYTES) break;
    }
  } catch {
    // The status decided the outcome already.
  } finally {
    body.destroy();
  }
}

function bodyOf(delivery: WebhookDelivery): { id: string; body: string; contentType: string; headers?: Readonly<Record<string, string>> } {
  if ('event' in delivery) return { id: delivery.event.id, body: JSON.stringify(webhookPayload(delivery.event)), contentType: 'application/json' };
  const { message } = delivery;
  if ('body' in message) return message;
  return { id: message.id, body: JSON.stringify(message.payload), contentType: 'application/json' };
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const agent = new Agent({
    connect: {
      lookup: guardedLookup(options.policy, options.resolve ?? systemResolve),
      timeout: timeoutMs,
      ...(options.trustedCa ? { ca: options.trustedCa } : {}),
    },
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS,
  });

  async function deliverOnce(delivery: WebhookDelivery): Promise<DeliveryOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const checked = checkWebhookUrl(delivery.url, options.policy);
    if (!checked.ok) return { result: 'permanent', durationMs: elapsed(), error: shortError(checked.errors[0]!.message) };
    const { id, body, contentType, headers } = bodyOf(delivery);
    let signature: SignatureHeaders;
    try {
      signature = signatureHeaders(delivery.secret, id, now(), body);
    } catch (error) {
      return { result: 'permanent', durationMs: elapsed(), error: shortError(`cannot sign: ${(error as Error).message}`) };
    }
    try {
      const response = await request(checked.url, {
        method: 'POST',
        dispatcher: agent,
        headers: { ...headers, ...signature, 'content-type': contentType, 'user-agent': WEBHOOK_USER_AGENT },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await drain(response.body);
      const location = response.headers.location;
      return outcomeOfStatus(response.statusCode, elapsed(), typeof location === 'string' ? location : undefined);
    } catch (error) {
      return outcomeOfError(error, elapsed(), timeoutMs);
    }
  }

  return { deliverOnce, close: () => agent.close() };
}
