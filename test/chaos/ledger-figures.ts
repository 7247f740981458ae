/**
 * What the ledger says about one test account, read from Redis directly (the layout of
 * docs/metering.md): the balance, the units still on hold, and the charged calls recorded in the
 * usage counters. `spent` is what left the account for good: start − balance − held.
 */
import { Redis } from 'ioredis';
import type { MeteringInstance } from '@retail/metering';

export interface AccountFigures {
  readonly balance: number;
  readonly held: number;
  readonly holds: number;
  readonly spent: number;
  /** Charged calls in the account's per-day usage counters (every operation, every day kept). */
  readonly usageCalls: number;
}

export async function accountFigures(redisUrl: string, accountId: string, startUnits: number): Promise<AccountFigures> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const base = `ledger:{${accountId}}:`;
    const [balance, holdUnits, days] = await Promise.all([redis.hget(`${base}acct`, 'balance'), redis.hvals(`${base}holds`), redis.smembers(`${base}days`)]);
    let usageCalls = 0;
    for (const day of days) {
      const counts = await redis.hvals(`${base}day:${day}`);
      usageCalls += counts.reduce((sum, n) => sum + Number(n), 0);
    }
    // A settled hold keeps its answer ("=<charged>") in its field for a while: not units on hold.
    const open = holdUnits.filter((units) => !units.startsWith('='));
    const held = open.reduce((sum, n) => sum + Number(n), 0);
    const current = Number(balance);
    return { balance: current, held, holds: open.length, spent: startUnits - current - held, usageCalls };
  } finally {
    redis.disconnect();
  }
}

/** A fresh account on the unlimited plan (the free plan's 5 requests/s would turn load into 429s) and its key. */
export async function fundedAccount(ledger: MeteringInstance, units: number): Promise<{ accountId: string; key: string }> {
  const { accountId } = await ledger.admin.createAccount({ units, plan: 'unlimited' });
  const { key } = await ledger.admin.createKey(accountId, { label: 'chaos' });
  return { accountId, key };
}

/** The lowest balance seen while `work` runs (read every few milliseconds): an overdraw would show below 0. */
export async function lowestBalanceDuring(redisUrl: string, accountId: string, work: Promise<unknown>): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let done = false;
  let lowest = Number.POSITIVE_INFINITY;
  void work.finally(() => (done = true));
  try {
    for (let reads = 0; !done && reads < 10_000; reads++) {
      lowest = Math.min(lowest, Number(await redis.hget(`ledger:{${accountId}}:acct`, 'balance')));
      await new Promise((r) => setTimeout(r, 2));
    }
    return lowest;
  } finally {
    redis.disconnect();
  }
}
