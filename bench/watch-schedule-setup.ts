/**
 * The watches of bench/watch-schedule.ts: two accounts with units on the real ledger, each watching a
 * run of products that overlaps the other's, so some products are watched twice (one fetch must
 * serve both accounts) and some once. All watches share one interval, so all are due in every one.
 */
import type { MeteringInstance } from '@retail/metering';
import type { Condition } from '../watcher/src/model.js';
import type { WatchStore } from '../watcher/src/store/index.js';

export interface WatchPlan {
  readonly watches: number;
  readonly products: number;
  readonly intervalSeconds: number;
}

export interface CreatedWatches {
  readonly accountIds: readonly [string, string];
  readonly unitsGranted: number;
  /** Products with two watches (one per account) and with one. */
  readonly sharedProducts: number;
  readonly singleProducts: number;
}

/** The ASIN of product n (B0 and eight digits: the format the store and the core accept). */
export const asinOf = (n: number) => `B0${String(n).padStart(8, '0')}`;

/** Never met by the stub core's price (19.99): evaluated on every refresh, fires no event. */
const CONDITIONS: Condition[] = [{ type: 'PRICE_AT_OR_BELOW', value: 5 }];

/** Account A watches products [0, W/2), account B [P − W/2, P): W − P products are shared. */
export function checkPlan(plan: WatchPlan): void {
  const half = plan.watches / 2;
  if (!Number.isInteger(half) || plan.products < half || plan.products > plan.watches) {
    throw new Error(`need an even number of watches W and W/2 ≤ products ≤ W, got ${plan.watches} watches over ${plan.products} products`);
  }
}

export async function createWatches(store: WatchStore, metering: MeteringInstance, plan: WatchPlan, unitsPerAccount: number): Promise<CreatedWatches> {
  checkPlan(plan);
  const half = plan.watches / 2;
  const a = await metering.admin.createAccount({ units: unitsPerAccount });
  const b = await metering.admin.createAccount({ units: unitsPerAccount });
  const drafts = [
    ...Array.from({ length: half }, (_, i) => ({ accountId: a.accountId, product: i })),
    ...Array.from({ length: half }, (_, i) => ({ accountId: b.accountId, product: plan.products - half + i })),
  ];
  // A few inserts in flight at once: the store's pool is ten connections.
  for (let i = 0; i < drafts.length; i += 8) {
    await Promise.all(drafts.slice(i, i + 8).map(({ accountId, product }) =>
      store.watches.create({ accountId, domain: 'US', asin: asinOf(product), intervalSeconds: plan.intervalSeconds, conditions: CONDITIONS, label: 'bench' })));
  }
  const shared = plan.watches - plan.products;
  return { accountIds: [a.accountId, b.accountId], unitsGranted: 2 * unitsPerAccount, sharedProducts: shared, singleProducts: plan.products - shared };
}
