import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WatchEvent } from '../model.js';
import { createWebhookSender, MAX_RESPONSE_BYTES, WEBHOOK_USER_AGENT, type WebhookSender, type WebhookSenderOptions } from './deliver.js';
import type { ResolveHost } from './guarded-lookup.js';
import { generateWebhookSecret } from './signer.js';
import { makeTestCertificate, startTestReceiver, type ReceiverHandler, type TestCertificate, type TestReceiver } from '../../../test/harness/https-receiver.js';

const event: WatchEvent = {
  id: 'evt_000000000042',
  watchId: 'wch_7',
  accountId: 'acct_private',
  type: 'PRICE_AT_OR_BELOW',
  before: { price: { value: 10, currency: 'USD' } },
  after: { price: { value: 8, currency: 'USD' } },
  at: new Date('2026-11-25T12:00:00.000Z'),
};

let certificate: TestCertificate;
const open: Array<TestReceiver | WebhookSender> = [];

beforeAll(() => {
  certificate = makeTestCertificate();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

async function receiver(handler?: ReceiverHandler): Promise<TestReceiver> {
  const started = await startTestReceiver(certificate, handler);
  open.push(started);
  return started;
}

function sender(options: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const created = createWebhookSender({ policy: { allowPrivateTargets: true }, trustedCa: certificate.cert, ...options });
  open.push(created);
  return created;
}

/** A resolver that knows one name, as an attacker's DNS server would answer it. */
function resolverAnswering(...addresses: string[]): ResolveHost & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe('deliverOnce to a real HTTPS receiver', () => {
  it('delivers the event signed so that the standardwebhooks library verifies it', async () => {
    const secret = generateWebhookSecret();
    const target = await receiver();
    const outcome = await sender().deliverOnce({ event, url: `https://localhost:${target.port}/hooks?x=1`, secret });

    expect(outcome).toMatchObject({ result: 'delivered', statusCode: 204 });
    expect(outcome.error).toBeUndefined();
    const [received] = target.received;
    expect(received).toMatchObject({ method: 'POST', url: '/hooks?x=1' });
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(received!.headers['webhook-id']).toBe(event.id);
    expect(Math.abs(Number(received!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(new Webhook(secret).verify(received!.body, received!.headers)).toEqual({
      id: event.id,
      watchId: event.watchId,
      type: 'PRICE_AT_OR_BELOW',
      before: { price: { value: 10, currency: 'USD' } },
      after: { price: { value: 8, currency: 'USD' } },
      at: '2026-11-25T12:00:00.000Z',
    });
  });

  it('fails verification when the body is tampered with or the receiver holds another secret', async () => {
    const secret = generateWebhookSecret();
    const target = await receiver();
    await sender().deliverOnce({ event, url: `https://localhost:${target.port}/`, secret });
    const { body, headers } = target.received[0]!;

    const tampered = body.replace('"value":8', '"value":1');
    expect(tampered).not.toBe(body);
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_other' })).toThrow(WebhookVerificationError);
  });

  it('signs the attempt time, so receivers refuse a delivery replayed after their five-minute window', async () => {
    const secret = generateWebhookSecret();
    const target = await receiver();
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await sender({ now: () => tenMinutesAgo }).deliverOnce({ event, url: `https://localhost:${target.port}/`, secret });
    const { body, headers } = target.received[0]!;

    expect(headers['webhook-timestamp']).toBe(String(Math.floor(tenMinutesAgo.getTime() / 1000)));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });

  it('calls a refused connection retryable', async () => {
    const gone = await receiver();
    await gone.close();
    const outcome = await sender().deliverOnce({ event, url: `https://127.0.0.1:${gone.port}/`, secret: generateWebhookSecret() });
    expect(outcome.result).toBe('retryable');
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses loopback targets without connecting when private targets are not allowed', async () => {
    const target = await receiver();
    const strict = sender({ policy: { allowPrivateTargets: false } });
    for (const url of [`https://127.0.0.1:${target.port}/`, `https://localhost:${target.port}/`, `https://[::ffff:127.0.0.1]:${target.port}/`]) {
      const outcome = await strict.deliverOnce({ event, url, secret: generateWebhookSecret() });
      expect(outcome.result, url).toBe('permanent');
      expect(outcome.statusCode).toBeUndefined();
      expect(outcome.error).toMatch(/loopback|internal name/);
    }
    expect(target.connections()).toBe(0);
  });

  it('does not follow a redirect: the attempt is retryable and the second server gets nothing', async () => {
    const second = await receiver();
    const first = await receiver((_, response) => {
      response.writeHead(302, { location: `https://localhost:${second.port}/elsewhere` }).end();
    });
    const outcome = await sender().deliverOnce({ event, url: `https://localhost:${first.port}/`, secret: generateWebhookSecret() });

    expect(outcome).toMatchObject({ result: 'retryable', statusCode: 302 });
    expect(outcome.error).toContain('not followed');
    expect(first.received).toHaveLength(1);
    expect(second.connections()).toBe(0);
  });

  it('gives up at the timeout and calls the attempt retryable', async () => {
    const target = await receiver(() => {
      // Never answers.
    });
    const outcome = await sender({ timeoutMs: 500 }).deliverOnce({ event, url: `https://localhost:${target.port}/`, secret: generateWebhookSecret() });

    expect(outcome.result).toBe('retryable');
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.error).toMatch(/^timeout/);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(450);
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  it('calls 5xx, 408 and 429 retryable and the other 4xx, 410 included, permanent', async () => {
    const expected: Record<number, string> = { 500: 'retryable', 503: 'retryable', 408: 'retryable', 429: 'retryable', 400: 'permanent', 401: 'permanent', 404: 'permanent', 410: 'permanent', 200: 'delivered', 202: 'delivered' };
    const target = await receiver((request, response) => {
      response.writeHead(Number(new URL(request.url, 'https://x').searchParams.get('status'))).end('some text');
    });
    const client = sender();
    for (const [status, result] of Object.entries(expected)) {
      const outcome = await client.deliverOnce({ event, url: `https://localhost:${target.port}/?status=${status}`, secret: generateWebhookSecret() });
      expect(outcome, status).toMatchObject({ result, statusCode: Number(status) });
      if (result !== 'delivered') expect(outcome.error).toBe(`HTTP ${status}`);
    }
  });

  it('reads a large answer only up to its limit and still reports the status', async () => {
    const target = await receiver((_, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(MAX_RESPONSE_BYTES * 64));
    });
    const outcome = await sender().deliverOnce({ event, url: `https://localhost:${target.port}/`, secret: generateWebhookSecret() });
    expect(outcome).toMatchObject({ result: 'delivered', statusCode: 200 });
  });

  it('does not trust a certificate outside its roots: a self-signed receiver without the test CA is a retryable TLS failure', async () => {
    const target = await receiver();
    const outcome = await sender({ trustedCa: undefined }).deliverOnce({ event, url: `https://localhost:${target.port}/`, secret: generateWebhookSecret() });
    expect(outcome.result).toBe('retryable');
    expect(outcome.error).toMatch(/certificate/i);
    expect(target.received).toHaveLength(0);
  });

  it('calls a secret that cannot sign permanent', async () => {
    const target = await receiver();
    const outcome = await sender().deliverOnce({ event, url: `https://localhost:${target.port}/`, secret: '' });
    expect(outcome).toMatchObject({ result: 'permanent' });
    expect(outcome.error).toMatch(/^cannot sign/);
    expect(target.connections()).toBe(0);
  });
});

describe('the DNS-rebinding guard', () => {
  it('refuses a name that resolves to a private address and makes no connection', async () => {
    const target = await receiver();
    const resolve = resolverAnswering('127.0.0.1');
    const outcome = await sender({ policy: { allowPrivateTargets: false }, resolve }).deliverOnce({
      event,
      url: `https://receiver.test:${target.port}/`,
      secret: generateWebhookSecret(),
    });

    expect(outcome.result).toBe('permanent');
    expect(outcome.error).toBe('receiver.test resolves to 127.0.0.1 is loopback; webhooks go to public hosts only');
    expect(resolve.calls).toEqual(['receiver.test']);
    expect(target.connections()).toBe(0);
  });

  it('refuses the name when any one of its addresses is private, even if another is public', async () => {
    const target = await receiver();
    const resolve = resolverAnswering('93.184.215.14', '10.1.2.3');
    const outcome = await sender({ policy: { allowPrivateTargets: false }, resolve }).deliverOnce({
      event,
      url: `https://receiver.test:${target.port}/`,
      secret: generateWebhookSecret(),
    });
    expect(outcome.result).toBe('permanent');
    expect(outcome.error).toContain('10.1.2.3 is private');
    expect(target.connections()).toBe(0);
  });

  it('connects to the address it checked, with the name kept for TLS and Host', async () => {
    const secret = generateWebhookSecret();
    const target = await receiver();
    // receiver.test exists only in this resolver: delivery succeeding shows the socket used its answer.
    const resolve = resolverAnswering('127.0.0.1');
    const outcome = await sender({ resolve }).deliverOnce({ event, url: `https://receiver.test:${target.port}/`, secret });

    expect(outcome).toMatchObject({ result: 'delivered', statusCode: 204 });
    expect(resolve.calls).toEqual(['receiver.test']);
    const [received] = target.received;
    expect(received!.servername).toBe('receiver.test');
    expect(received!.headers.host).toBe(`receiver.test:${target.port}`);
    expect(new Webhook(secret).verify(received!.body, received!.headers)).toMatchObject({ id: event.id });
  });

  it('calls a name that does not resolve retryable (DNS failures pass)', async () => {
    const resolve: ResolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND receiver.test'), { code: 'ENOTFOUND' });
    };
    const outcome = await sender({ resolve }).deliverOnce({ event, url: 'https://receiver.test:8443/', secret: generateWebhookSecret() });
    expect(outcome.result).toBe('retryable');
    expect(outcome.error).toContain('ENOTFOUND');
  });
});

afterAll(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});
