/**
 * What the refresh tests share: one PGlite store per file, a real metering ledger (memory store), a
 * scripted SnapshotReader (price 10 → 8 → out of stock → back) and small helpers to build runs.
 */
import { randomUUID } from 'node:crypto';
import { createMetering, type MeteringInstance } from '@retail/metering';
import type { Condition, DomainCode } from '../../../watcher/src/model.js';
import type { JobQueue, JobRun } from '../../../watcher/src/queue/index.js';
import type { DeliveryJob, RefreshJob, SnapshotFields, SnapshotRead, SnapshotReader } from '../../../watcher/src/refresh/index.js';
import { createPgliteDatabase, openWatchStore, type WatchStore, type WebhookTarget } from '../../../watcher/src/store/index.js';

export const HOUR = 3_600_000;
export const START = Date.parse('2026-03-01T12:00:00Z');

/** A product no other test uses. */
export const newAsin = () => `B0${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`;

export async function openTestStore(): Promise<{ store: WatchStore; clock: { now: () => Date; set: (ms: number) => void } }> {
  let now = START;
  const clock = { now: () => new Date(now), set: (ms: number) => void (now = ms) };
  const store = await openWatchStore(await createPgliteDatabase(), { clock: clock.now });
  return { store, clock };
}

/** A real ledger (memory store) whose clock the test moves, so holds and remembered settles can expire. */
export async function openTestMetering(): Promise<{ metering: MeteringInstance; clock: { advance: (ms: number) => void } }> {
  let now = START;
  const metering = await createMetering({ clock: () => now });
  return { metering, clock: { advance: (ms) => void (now += ms) } };
}

export async function balanceOf(metering: MeteringInstance, accountId: string): Promise<number> {
  return (await metering.admin.summary(accountId)).balance;
}

const inStock = (value: number): SnapshotFields => ({ retrievedAt: new Date(START), price: { value, currency: 'USD' }, isInStock: true, buyboxSellerId: 'ATVPDKIKX0DER' });

/** The page over time: price 10, then 8, then out of stock (no price shown), then back at 8. */
export const PRICE_STORY: readonly SnapshotRead[] = [
  { kind: 'snapshot', snapshot: inStock(10) },
  { kind: 'snapshot', snapshot: inStock(8) },
  { kind: 'snapshot', snapshot: { retrievedAt: new Date(START), isInStock: false } },
  { kind: 'snapshot', snapshot: inStock(8) },
];

/**
 * Answers the script in order, one entry per read; counts reads. A fresh read (a confirmation past
 * the page cache) does not advance the script: it answers `fresh(entry)` of the entry last read, by
 * default that entry again (the page still shows what was read).
 */
export function scriptedReader(
  script: readonly SnapshotRead[],
  options: { fresh?: (last: SnapshotRead, index: number) => SnapshotRead } = {},
): SnapshotReader & { reads: () => number; freshReads: () => number } {
  let reads = 0;
  let freshReads = 0;
  return {
    reads: () => reads,
    freshReads: () => freshReads,
    async read(_domain, _asin, readOptions) {
      if (readOptions?.fresh) {
        freshReads += 1;
        const index = Math.min(Math.max(reads - 1, 0), script.length - 1);
        return options.fresh ? options.fresh(script[index]!, index) : script[index]!;
      }
      const next = script[Math.min(reads, script.length - 1)]!;
      reads += 1;
      return next;
    },
  };
}

/** A deliveries queue that only records what was added (the delivery processor has its own test). */
export function recordingQueue(): JobQueue<DeliveryJob> & { added: string[] } {
  const added: string[] = [];
  return {
    name: 'recording',
    added,
    async add(data, options) {
      added.push(options?.id ?? data.deliveryId);
      return options?.id ?? data.deliveryId;
    },
    addBulk: async () => { throw new Error('not used'); },
    upsertSchedule: async () => { throw new Error('not used'); },
    removeSchedule: async () => false,
    getSchedule: async () => undefined,
  };
}

/** The scheduled run of a product at `dueAt`, as the job system hands it to the processor. */
export function runOf(domain: DomainCode, asin: string, dueAt: number, attempt = 1): JobRun<RefreshJob> {
  const scheduleId = `${domain}:${asin}`;
  return { id: `${scheduleId}:${dueAt}`, data: { domain, asin }, attempt, maxAttempts: 4, dueAt, scheduleId };
}

export async function newWatch(
  store: WatchStore,
  accountId: string,
  asin: string,
  options: { conditions?: Condition[]; intervalSeconds?: number; id?: string; webhook?: WebhookTarget } = {},
) {
  return store.watches.create({
    accountId, domain: 'US', asin, intervalSeconds: options.intervalSeconds ?? 3600, conditions: options.conditions ?? [],
    ...(options.id && { id: options.id }), ...(options.webhook && { webhook: options.webhook }),
  });
}

export async function eventTypes(store: WatchStore, accountId: string, watchId?: string): Promise<string[]> {
  const page = await store.events.list(accountId, { limit: 100, ...(watchId && { watchId }) });
  return page.items.map((event) => event.type);
}
