/** The store suite on embedded PGlite (in memory), plus what only a data directory shows. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPgliteDatabase, openWatchStore } from '../../../watcher/src/store/index.js';
import { incidentStoreSuite } from './incident-store-suite.js';
import { jobStoreSuite } from './job-store-suite.js';
import { storeSuite } from './store-suite.js';

storeSuite('PGlite', () => createPgliteDatabase());
jobStoreSuite('PGlite', () => createPgliteDatabase());
incidentStoreSuite('PGlite', () => createPgliteDatabase());

describe('PGlite in a data directory', () => {
  it('keeps watches across a restart and does not migrate twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watcher-pglite-'));
    try {
      const first = await openWatchStore(await createPgliteDatabase(dir));
      const watch = await first.watches.create({ accountId: 'a', domain: 'DE', asin: 'B00TEST123', intervalSeconds: 900, conditions: [] });
      await first.close();
      const log: string[] = [];
      const second = await openWatchStore(await createPgliteDatabase(dir), { log: (line) => log.push(line) });
      expect(await second.watches.get('a', watch.id)).toEqual(watch);
      expect(log).toContain('No migrations to run!');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
