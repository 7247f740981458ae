/**
 * A marketplace that cannot be reached answers alike on every interface, and says why: REST,
 * GraphQL, MCP and gRPC give the same status and the same message naming the class (DNS lookup
 * failed, connection refused, TLS failure, timeout), never the origin's address, and charge
 * nothing. Once the failures open the host's circuit, the refusal says how many failures of which
 * class opened it and when to retry (Retry-After on REST). Real cores on free ports, each reading
 * an origin that fails on real sockets (test/harness/unreachable-origins.ts).
 */
import { ConnectError } from '@connectrpc/connect';
import { Domain, ErrorReason } from '@retail/contract';
import { createLogger } from '@retail/core';
import { FAILURES, type TransportFailure } from '@retail/core/outcomes/causes';
import { errorDetailOf, registryOperation } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';
import { SERVICE_TOKEN } from '../harness/stack.js';
import { startUnreachableOrigins, type UnreachableKind, type UnreachableOrigins } from '../harness/unreachable-origins.js';
import { drivenStack } from './driven-stack.js';

/** [origin, class, status, what the core's log says of the private cause] */
const CASES: ReadonlyArray<[UnreachableKind, TransportFailure, number, RegExp]> = [
  ['dns', 'dns', 502, /ENOTFOUND|EAI_AGAIN/],
  ['refused', 'connection-refused', 502, /ECONNREFUSED/],
  ['tls', 'tls', 502, /certificate/],
  ['silent', 'timeout', 504, /aborted|timeout/i],
];
/** One attempt per call, so each call is one failure; the circuit opens after one call per interface. */
const FAILURES_TO_OPEN = 3;

let unreachable: UnreachableOrigins;
beforeAll(async () => {
  unreachable = await startUnreachableOrigins();
});
afterAll(async () => {
  await unreachable?.close();
});

describe.each(CASES)('a marketplace origin that fails with %s', (kind, failure, status, privateCause) => {
  let core: StartedCore;
  const logLines: string[] = [];
  beforeAll(async () => {
    core = await startCore({
      serviceToken: SERVICE_TOKEN,
      logger: createLogger('info', { write: (line: string) => void logLines.push(line) }),
      marketplaceOrigin: unreachable.origins[kind],
      env: { UPSTREAM_RETRY_ATTEMPTS: '1', UPSTREAM_TIMEOUT_MS: '300', UPSTREAM_BREAKER_FAILURES: String(FAILURES_TO_OPEN), UPSTREAM_BREAKER_OPEN_MS: '60000' },
    });
  });
  afterAll(async () => {
    await core?.stop();
  });
  const live = drivenStack(() => ({ coreAddress: core.address }));
  const product = { asin: 'B0FXTUS001', domain: 'US' };

  /** What each interface answered, reduced to what must agree; the origin's address must not show. */
  async function answers(): Promise<Record<string, { status: number; message: string | undefined; charged: number }>> {
    const out: Record<string, { status: number; message: string | undefined; charged: number }> = {};
    for (const driver of live.drivers) {
      const res = await driver.call('GetProduct', product, { key: live.key });
      expect(res.violations).toEqual([]);
      out[driver.name] = { status: res.status, message: res.errors?.[0]?.message, charged: res.unitsCharged };
      if (res.status === 503) expect(Number(res.headers.get('retry-after') ?? '1'), driver.name).toBeGreaterThanOrEqual(1);
    }
    return out;
  }

  it('names the class on REST, GraphQL and MCP alike, charges nothing, and shows nothing of the origin', async () => {
    const first = await answers();
    for (const [name, answer] of Object.entries(first)) {
      expect(answer, name).toEqual({ status, message: FAILURES[failure].message, charged: 0 });
    }
    const { hostname, port } = new URL(unreachable.origins[kind]);
    for (const answer of Object.values(first)) for (const internal of [hostname, port].filter(Boolean)) expect(answer.message).not.toContain(internal);
    // The private cause is the operator's: in the core's log line of each refused call.
    const refusals = logLines.map((line) => JSON.parse(line) as { msg: string; cause?: string }).filter((entry) => entry.msg === 'call refused');
    expect(refusals).toHaveLength(live.drivers.length);
    for (const entry of refusals) expect(entry.cause).toMatch(privateCause);
  });

  it('then, with the circuit open, every interface says what opened it and when to retry', async () => {
    const open = await answers();
    const expected = new RegExp(`^requests to the marketplace are paused after ${FAILURES_TO_OPEN} failures in a row \\(${escape(FAILURES[failure].label)}\\); retry after (59|60) s$`);
    for (const [name, answer] of Object.entries(open)) {
      expect(answer.status, name).toBe(503);
      expect(answer.message, name).toMatch(expected);
      expect(answer.charged, name).toBe(0);
    }
  });

  it('straight over gRPC the refusal carries the same reason, message and retry-after', async () => {
    try {
      await live.stack.core.callOperation(registryOperation('GetProduct'), { asin: 'B0FXTUS001', domain: Domain.US }, { requestId: `unreachable-${kind}` });
      expect.unreachable('the marketplace cannot be reached');
    } catch (err) {
      const detail = errorDetailOf(ConnectError.from(err));
      expect(detail?.reason).toBe(ErrorReason.CIRCUIT_OPEN);
      expect(detail?.message).toMatch(/^requests to the marketplace are paused after 3 failures in a row/);
      expect(detail?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    }
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
