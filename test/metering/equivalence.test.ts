/**
 * Model check: random command sequences (admit, batches' admits with a rate cost, free reads that take a
 * token and hold nothing, settle, clock moves, grants, disable, revoke) give the same observable results
 * on the memory store and on a real redis-server, step by step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ErrorReason } from '@retail/contract';
import type { AdmitReadResult, AdmitResult, Hold, Interface } from '../../gateways/metering/src/api.js';
import { createMetering, type MeteringInstance } from '../../gateways/metering/src/index.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { fakeClock } from './ledger-suite.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const OPERATIONS = ['GetProduct', 'GetProductOffers', 'SearchProducts'];

type Command =
  | { kind: 'admit'; key: number; iface: Interface; ops: number; shapeValid: boolean; rateCost?: number }
  | { kind: 'read'; key: number; iface: Interface | '' }
  | { kind: 'settle'; hold: number; succeeded: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'grant'; units: number }
  | { kind: 'disable'; disabled: boolean }
  | { kind: 'revoke'; key: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('admit' as const), key: fc.nat(2), iface: fc.constantFrom<Interface>('rest', 'graphql', 'mcp'), ops: fc.integer({ min: 1, max: 3 }), shapeValid: fc.boolean() }) },
  // Batches: a rate cost from a few items to beyond the free plan's burst of 10 (admitted on a full bucket, into a debt).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('admit' as const), key: fc.nat(2), iface: fc.constantFrom<Interface>('rest', 'graphql', 'mcp'), ops: fc.integer({ min: 1, max: 3 }), shapeValid: fc.boolean(), rateCost: fc.integer({ min: 2, max: 25 }) }) },
  // A usage history read: one token, nothing held; '' skips the interface scope (REST's), as the summary does.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const), key: fc.nat(2), iface: fc.constantFrom<Interface | ''>('', 'rest', 'graphql', 'mcp') }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('settle' as const), hold: fc.nat(20), succeeded: fc.nat(3) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2_500 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('grant' as const), units: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('disable' as const), disabled: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), key: fc.nat(2) }) },
);

/** One ledger driven by the commands; returns what a client could observe at each step. */
async function drive(metering: MeteringInstance, clock: ReturnType<typeof fakeClock>, units: number, commands: Command[]) {
  const { accountId } = await metering.admin.createAccount({ units });
  const keys = [
    await metering.admin.createKey(accountId),
    await metering.admin.createKey(accountId, { scopes: { operations: [], interfaces: ['mcp', 'graphql'] } }),
    await metering.admin.createKey(accountId, { scopes: { operations: ['GetProduct', 'SearchProducts'], interfaces: [] } }),
  ];
  const holds: Hold[] = [];
  const seen: unknown[] = [];
  const describeAdmit = (r: AdmitResult) =>
    r.ok ? { ok: true, balance: r.balance, remaining: r.rateLimit.remaining, reset: r.rateLimit.resetSeconds }
    : r.shape ? { shape: true, remaining: r.rateLimit.remaining }
    : { reason: ErrorReason[r.denial.reason], retry: r.denial.retryAfterSeconds, remaining: r.denial.rateLimit?.remaining };
  const describeRead = (r: AdmitReadResult) =>
    r.ok ? { ok: true, remaining: r.rateLimit.remaining, reset: r.rateLimit.resetSeconds }
    : { reason: ErrorReason[r.denial.reason], retry: r.denial.retryAfterSeconds, remaining: r.denial.rateLimit?.remaining };
  for (const c of commands) {
    switch (c.kind) {
      case 'read':
        seen.push(describeRead(await metering.meter.admitRead(keys[c.key]!.key, c.iface)));
        break;
      case 'admit': {
        const r = await metering.meter.admit({ key: keys[c.key]!.key, interface: c.iface, operations: OPERATIONS.slice(0, c.ops), shapeValid: c.shapeValid, requestId: 'x', ...(c.rateCost ? { rateCost: c.rateCost } : {}) });
        if (r.ok) holds.push(r.hold);
        seen.push(describeAdmit(r));
        break;
      }
      case 'settle': {
        const hold = holds[c.hold % Math.max(1, holds.length)];
        seen.push(hold ? await metering.meter.settle(hold, c.succeeded) : 'no hold');
        break;
      }
      case 'advance':
        clock.advance(c.ms);
        seen.push(await metering.admin.summary(accountId).then((s) => s.balance));
        break;
      case 'grant':
        seen.push(await metering.admin.grantUnits(accountId, c.units));
        break;
      case 'disable':
        await metering.admin.setDisabled(accountId, c.disabled);
        break;
      case 'revoke':
        seen.push(await metering.admin.revokeKey(accountId, keys[c.key]!.info.keyId));
        break;
    }
  }
  const summary = await metering.admin.summary(accountId);
  seen.push({ balance: summary.balance, usage: [...summary.usage].sort((a, b) => a.operation.localeCompare(b.operation)) });
  return seen;
}

describe.skipIf(missing !== null)('memory store and Redis store agree', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('on random command sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(command, { minLength: 5, maxLength: 40, size: 'max' }), async (units, commands) => {
        const memoryClock = fakeClock();
        const redisClock = fakeClock();
        const memory = await createMetering({ clock: memoryClock.now, holdTtlMs: 3_000 });
        const onRedis = await createMetering({ clock: redisClock.now, holdTtlMs: 3_000, redisUrl: redis.url });
        try {
          expect(await drive(onRedis, redisClock, units, commands)).toEqual(await drive(memory, memoryClock, units, commands));
        } finally {
          await onRedis.close();
        }
      }),
      {
        numRuns: 40,
        // Always include an orphaned hold that expires, and a burst into the rate limit.
        examples: [
          [3, [{ kind: 'admit', key: 0, iface: 'rest', ops: 2, shapeValid: true }, { kind: 'advance', ms: 2_500 }, { kind: 'advance', ms: 600 }]],
          [6, Array.from({ length: 12 }, () => ({ kind: 'admit' as const, key: 0, iface: 'mcp' as const, ops: 1, shapeValid: false }))],
          // A batch past the burst, the debt it leaves, and the bucket refilling through it.
          // Reads into the rate limit, a read behind a batch's debt, and a lookup after reads.
          [2, [...Array.from({ length: 11 }, () => ({ kind: 'read' as const, key: 1, iface: 'graphql' as const })), { kind: 'admit', key: 0, iface: 'rest', ops: 1, shapeValid: true }, { kind: 'advance', ms: 400 }, { kind: 'read', key: 2, iface: '' }, { kind: 'admit', key: 0, iface: 'rest', ops: 1, shapeValid: true, rateCost: 20 }, { kind: 'advance', ms: 2_000 }, { kind: 'read', key: 0, iface: 'mcp' }]],
          [8, [{ kind: 'admit', key: 0, iface: 'rest', ops: 2, shapeValid: true, rateCost: 25 }, { kind: 'admit', key: 0, iface: 'rest', ops: 1, shapeValid: true }, { kind: 'advance', ms: 2_500 }, { kind: 'admit', key: 0, iface: 'rest', ops: 1, shapeValid: true }, { kind: 'advance', ms: 1_000 }, { kind: 'admit', key: 0, iface: 'rest', ops: 1, shapeValid: true, rateCost: 3 }]],
        ],
      },
    );
  });
});
