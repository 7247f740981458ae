/**
 * Two watcher replicas on one real PostgreSQL server: overlapping runs of one product (a one-off first
 * refresh and the scheduled run, on different replicas) read once and charge once, and a full run
 * stores what it stores on PGlite. Skips, saying so, when no server answers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createMetering } from '@retail/metering';
import { createRefreshProcessor } from '../../../watcher/src/refresh/index.js';
import { createPostgresDatabase, openWatchStore, type WatchStore } from '../../../watcher/src/store/index.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { balanceOf, eventTypes, newAsin, newWatch, PRICE_STORY, recordingQueue, runOf, START } from './fixtures.js';

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('refresh on PostgreSQL with two replicas', () => {
  let database: TestDatabase;
  const stores: WatchStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    await database?.drop();
  });

  it('lets one replica serve a product while the other steps back: one read, one unit, the events once', async () => {
    database = await createTestDatabase('watcher_refresh');
    for (let replica = 0; replica < 2; replica++) {
      stores.push(await openWatchStore(createPostgresDatabase({ connectionString: database.url }), { clock: () => new Date(START) }));
    }
    const metering = await createMetering({ clock: () => START });
    try {
      const { accountId } = await metering.admin.createAccount({ units: 5 });
      const asin = newAsin();
      await newWatch(stores[0]!, accountId, asin, { conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 12 }] });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      const reader = { async read() { reads += 1; await gate; return PRICE_STORY[0]!; } };
      const [one, two] = stores.map((store) => createRefreshProcessor({ store, meter: metering.meter, reader, deliveries: recordingQueue() }));
      const first = one!(runOf('US', asin, START));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(two!(runOf('US', asin, START + 1000))).rejects.toThrow(/another run of the product is in progress/);
      release();
      await first;
      await two!(runOf('US', asin, START + 1000, 2));
      expect(reads).toBe(1);
      expect(await balanceOf(metering, accountId)).toBe(4);
      expect(await eventTypes(stores[1]!, accountId)).toEqual(['PRICE_AT_OR_BELOW']);
    } finally {
      await metering.close();
    }
  }, 60_000);
});
