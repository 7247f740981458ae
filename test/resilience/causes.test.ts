/**
 * Failures name their cause: the real upstream client against origins that fail on real sockets
 * (test/harness/unreachable-origins.ts). The client-facing message names the class (DNS, refused,
 * TLS, timeout) and nothing behind it (no address, port or host name of the origin); the private
 * cause keeps the library's error for the logs. Through the resilience stack, the circuit that
 * opens says what opened it and when the next attempt goes out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReason } from '@retail/contract';
import { marketplaceByCode } from '@retail/core/marketplaces/index';
import { FAILURES, UpstreamFailure, type TransportFailure } from '@retail/core/outcomes/causes';
import type { PageRequest } from '@retail/core/pages/types';
import { createResilientPageFetcher } from '@retail/core/resilience/compose';
import { outcomeClassOf } from '@retail/core/resilience/outcome-class';
import { createPageFetcher } from '@retail/core/upstream/index';
import { startUnreachableOrigins, type UnreachableKind, type UnreachableOrigins } from '../harness/unreachable-origins.js';

const US = marketplaceByCode('US');
const request = (): PageRequest => ({ marketplace: US, path: '/dp/B0FXTUS001', kind: 'product', signal: new AbortController().signal });
const failure = (p: Promise<unknown>) => p.then(() => expect.unreachable('expected a failure'), (e: unknown) => e as UpstreamFailure);

let unreachable: UnreachableOrigins;
beforeAll(async () => {
  unreachable = await startUnreachableOrigins();
});
afterAll(async () => {
  await unreachable.close();
});

const CASES: ReadonlyArray<[UnreachableKind, TransportFailure, ErrorReason, RegExp]> = [
  ['refused', 'connection-refused', ErrorReason.UPSTREAM_ERROR, /ECONNREFUSED/],
  ['dns', 'dns', ErrorReason.UPSTREAM_ERROR, /ENOTFOUND|EAI_AGAIN/],
  ['tls', 'tls', ErrorReason.UPSTREAM_ERROR, /certificate|SSL|TLS/i],
  ['silent', 'timeout', ErrorReason.UPSTREAM_TIMEOUT, /abort|timeout/i],
];

describe('the upstream client names why the marketplace could not be reached', () => {
  it.each(CASES)('%s origin: class %s, its public message, the library error kept as the private cause', async (kind, expected, reason, privateCause) => {
    // The silent origin needs the attempt's time limit to pass; the others fail long before it.
    const client = createPageFetcher({ origin: unreachable.origins[kind], timeoutMs: kind === 'silent' ? 300 : 10_000 });
    try {
      const error = await failure(client.fetchPage(request()));
      expect(error).toBeInstanceOf(UpstreamFailure);
      expect({ failure: error.failure, outcome: outcomeClassOf(error), reason: error.reason }).toEqual({ failure: expected, outcome: expected, reason });
      expect(error.message).toBe(FAILURES[expected].message);
      // Nothing of the origin reaches the client: not its address, port or name.
      const { hostname, port } = new URL(unreachable.origins[kind]);
      for (const internal of [hostname, port].filter(Boolean)) expect(error.message).not.toContain(internal);
      const cause = error.cause as Error & { code?: string };
      expect(`${cause.name} ${cause.code ?? ''} ${cause.message}`).toMatch(privateCause);
    } finally {
      await client.close();
    }
  });

  it('docs/contract.md lists every message as the table has it', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/contract.md', import.meta.url)), 'utf8');
    for (const row of Object.values(FAILURES)) if (row.message) expect(doc).toContain(`| ${row.message} |`);
  });

  it('every message names its class in words a reader recognises', () => {
    expect(FAILURES.dns.message).toContain('DNS lookup failed');
    expect(FAILURES['connection-refused'].message).toContain('connection refused');
    expect(FAILURES.tls.message).toContain('TLS failure');
    expect(FAILURES.timeout.message).toContain('timeout');
    expect(FAILURES['connection-reset'].message).toContain('reset');
  });
});

describe('through retries and the breaker', () => {
  it('a refused connection is retried; once the circuit opens, the refusal names the class, the count and the wait', async () => {
    // Time the test moves by hand; back-offs (1 ms at most) end at once.
    let now = Date.now();
    const clock = { now: () => now, sleep: async () => undefined };
    const client = createPageFetcher({ origin: unreachable.origins.refused, timeoutMs: 5_000 });
    const fetcher = createResilientPageFetcher(client, {
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, minAttemptMs: 1 },
      breaker: { failureThreshold: 5, openMs: 30_000 },
      limits: {},
      clock,
    });
    try {
      expect(await failure(fetcher.fetchPage(request()))).toMatchObject({ reason: ErrorReason.UPSTREAM_ERROR, message: FAILURES['connection-refused'].message });
      // The second call's third attempt meets the circuit opened by its second (five refusals in a row).
      const open = await failure(fetcher.fetchPage(request()));
      expect(open).toMatchObject({
        reason: ErrorReason.CIRCUIT_OPEN,
        retryAfterSeconds: 30,
        message: 'requests to the marketplace are paused after 5 failures in a row (connection refused); retry after 30 s',
      });
      now += 12_000;
      expect(await failure(fetcher.fetchPage(request()))).toMatchObject({ retryAfterSeconds: 18, message: expect.stringContaining('retry after 18 s') });
      expect(fetcher.metrics.snapshot().counters).toMatchObject({ 'upstream_fetch_total{host="www.amazon.com",outcome="connection-refused"}': 5 });
    } finally {
      await client.close();
    }
  });

  it('a TLS failure is not retried (a rejected certificate stays rejected) but counts against the host', async () => {
    const client = createPageFetcher({ origin: unreachable.origins.tls, timeoutMs: 5_000 });
    const fetcher = createResilientPageFetcher(client, {
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, minAttemptMs: 1 },
      breaker: { failureThreshold: 2, openMs: 30_000 },
      limits: {},
    });
    try {
      for (let i = 0; i < 2; i++) expect(await failure(fetcher.fetchPage(request()))).toMatchObject({ failure: 'tls' });
      expect(fetcher.metrics.snapshot().counters['upstream_fetch_total{host="www.amazon.com",outcome="tls"}']).toBe(2);
      expect((await failure(fetcher.fetchPage(request()))).message).toMatch(/^requests to the marketplace are paused after 2 failures in a row \(TLS failure\); retry after (29|30) s$/);
    } finally {
      await client.close();
    }
  });
});
