/**
 * Seeded bad gRPC requests to the core (grpc-js, bytes on the wire): fields outside their rules,
 * bytes that are no message, calls without the service token. A well-encoded request with bad
 * fields is refused with a client status (INVALID_ARGUMENT, UNAUTHENTICATED, or the marketplace's
 * NOT_FOUND for a well-formed id it does not have), never INTERNAL or UNKNOWN, and every refusal but
 * the token check carries the retail.v1.ErrorDetail trailer the gateways map by (a status without it
 * reads as a 500 to clients). Bytes that do not decode are answered by grpc-js itself before any
 * handler runs (INTERNAL "Error deserializing request", gRPC's own convention); for those the core
 * must answer and keep serving, and the figures are printed.
 */
import * as grpc from '@grpc/grpc-js';
import { ERROR_DETAIL_METADATA_KEY } from '@retail/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisMissing, startRedis } from '../harness/redis.js';
import { sampleCases } from './bad-inputs.js';
import { LOAD_BUDGET_MS, LOADED_TEST_LIMIT_MS, runBounded } from './bounded-load.js';
import { type ChaosStack, startChaosStack } from './chaos-stack.js';
import { type GrpcCase, grpcCases } from './grpc-bad-requests.js';

const missing = redisMissing();
if (missing) console.log(`chaos tier: ${missing}`);

const SEED = 50051;
const CASES = 500;
/** What a bad request may get back; UNAVAILABLE and DEADLINE_EXCEEDED only come from the marketplace, with a detail. */
const ALLOWED = new Set([grpc.status.OK, grpc.status.INVALID_ARGUMENT, grpc.status.NOT_FOUND, grpc.status.UNAUTHENTICATED, grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED]);

describe.skipIf(missing)('bad gRPC requests to the core', () => {
  let redis: RedisServer;
  let stack: ChaosStack;
  let client: grpc.Client;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startChaosStack({ ledgerUrl: redis.url, coreDeadlineMs: 10_000 });
    client = new grpc.Client(stack.coreAddress, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    await stack?.stop();
    await redis?.stop();
  });

  function call(c: GrpcCase): Promise<{ code: number; detail: boolean; details: string }> {
    const metadata = new grpc.Metadata();
    if (c.token !== 'missing') metadata.set('authorization', `Bearer ${c.token === 'valid' ? stack.serviceToken : 'not-the-token'}`);
    return new Promise((resolve) => {
      client.makeUnaryRequest(
        `/retail.v1.RetailService/${c.method}`,
        (bytes: Uint8Array) => Buffer.from(bytes),
        (bytes: Buffer) => bytes,
        c.bytes,
        metadata,
        { deadline: Date.now() + 10_000 },
        (error) => {
          if (!error) return resolve({ code: grpc.status.OK, detail: false, details: '' });
          resolve({ code: error.code ?? grpc.status.UNKNOWN, detail: error.metadata?.get(ERROR_DETAIL_METADATA_KEY).length > 0, details: error.details ?? '' });
        },
      );
    });
  }

  it('refuses every well-encoded one with a client status and an error detail, and keeps serving after undecodable bytes', async () => {
    const cases = sampleCases(grpcCases(), SEED, CASES);
    const codes: Record<string, number> = {};
    const violations: { method: string; token: string; bytes: string; code: string; details: string }[] = [];
    const undecodableCodes: Record<string, number> = {};
    await runBounded(cases.length, 8, LOAD_BUDGET_MS, async (i) => {
      const c = cases[i]!;
      const answer = await call(c);
      const name = grpc.status[answer.code] ?? String(answer.code);
      const tally = c.wellEncoded ? codes : undecodableCodes;
      tally[name] = (tally[name] ?? 0) + 1;
      if (!c.wellEncoded) return;
      const needsDetail = answer.code !== grpc.status.OK && answer.code !== grpc.status.UNAUTHENTICATED;
      if (!ALLOWED.has(answer.code)) violations.push({ method: c.method, token: c.token, bytes: Buffer.from(c.bytes).toString('hex').slice(0, 64), code: name, details: answer.details.slice(0, 120) });
      else if (needsDetail && !answer.detail) violations.push({ method: c.method, token: c.token, bytes: Buffer.from(c.bytes).toString('hex').slice(0, 64), code: `${name} without detail`, details: answer.details.slice(0, 120) });
    });
    const byCode: Record<string, number> = {};
    for (const v of violations) byCode[v.code] = (byCode[v.code] ?? 0) + 1;
    const health = await call({ method: 'GetBestSellerCategories', bytes: new Uint8Array(), wellEncoded: true, token: 'valid' });
    console.log(
      `gRPC fuzz (seed ${SEED}): ${cases.length} calls; well-encoded: codes ${JSON.stringify(codes)}, ${violations.length} violations ${JSON.stringify(byCode)}; ` +
        `undecodable bytes: codes ${JSON.stringify(undecodableCodes)}; a plain call afterwards: ${grpc.status[health.code]}` +
        (violations.length ? `; e.g. ${JSON.stringify(violations.slice(0, 3))}` : ''),
    );
    expect(violations).toEqual([]);
    // Random bytes sometimes decode into a valid request: those may succeed like any other.
    expect(Object.keys(undecodableCodes).filter((code) => code !== 'INTERNAL' && !ALLOWED.has(grpc.status[code as keyof typeof grpc.status] as number))).toEqual([]);
    expect(grpc.status[health.code], 'the core still serves').toBe('OK');
  }, LOADED_TEST_LIMIT_MS);
});
