/**
 * The store suite on a real PostgreSQL server (a throw-away database on 127.0.0.1:5432), plus what
 * only a shared server shows: several watcher processes starting at once.
 */
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, migrate, openWatchStore, type Database } from '../../../watcher/src/store/index.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { incidentStoreSuite } from './incident-store-suite.js';
import { jobStoreSuite } from './job-store-suite.js';
import { storeSuite } from './store-suite.js';

/** Every migration the watcher ships, in order: what exactly one of the concurrent starters applies. */
const WATCHER_MIGRATIONS = readdirSync(new URL('../../../watcher/migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, '')).sort();

const missing = await postgresMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('PostgreSQL', () => {
  const created: TestDatabase[] = [];
  const open = async (): Promise<{ test: TestDatabase; db: Database }> => {
    const test = await createTestDatabase();
    created.push(test);
    return { test, db: createPostgresDatabase({ connectionString: test.url }) };
  };
  afterAll(async () => {
    for (const test of created) await test.drop();
  });

  storeSuite('PostgreSQL', async () => (await open()).db);
  jobStoreSuite('PostgreSQL', async () => (await open()).db);
  incidentStoreSuite('PostgreSQL', async () => (await open()).db);

  it('concurrent starters: exactly one applies the migrations, all end up with the schema', async () => {
    const { test } = await open();
    const starters = Array.from({ length: 4 }, () => createPostgresDatabase({ connectionString: test.url, maxConnections: 2 }));
    try {
      const applied = await Promise.all(starters.map((db) => migrate(db)));
      expect(applied.filter((names) => names.length > 0)).toEqual([WATCHER_MIGRATIONS]);
      const stores = await Promise.all(starters.map((db) => openWatchStore(db)));
      const watch = await stores[0]!.watches.create({ accountId: 'a', domain: 'US', asin: 'B00CONCUR1', intervalSeconds: 60, conditions: [] });
      expect(await stores[3]!.watches.get('a', watch.id)).toEqual(watch);
    } finally {
      await Promise.all(starters.map((db) => db.close()));
    }
  });
});
