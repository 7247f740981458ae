/**
 * `npm start` with no server at all runs the watcher in its process: embedded PGlite in the data
 * directory (migrated at start, kept across restarts), the webhook key generated there once, the
 * in-memory job system, and readiness that includes the watcher.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '../../../watcher/src/store/index.js';
import { startOneProcess } from '../../harness/one-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-watcher-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the watcher inside npm start', () => {
  it('starts on embedded PGlite in its data directory, is part of readiness, and starts again on the same directory', async () => {
    for (let start = 0; start < 2; start++) {
      const running = await startOneProcess({ WATCHER_DATA_DIR: dataDir });
      try {
        expect((await fetch(`${running.stack.url}/readyz`)).status).toBe(200);
      } finally {
        await running.stop();
      }
    }
    expect(statSync(join(dataDir, 'webhook-secret.key')).mode & 0o777).toBe(0o600);
    // The directory is a migrated database once the process has let go of it.
    const db = await createPgliteDatabase(dataDir);
    try {
      const tables = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
      expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['watches', 'snapshots', 'watch_events', 'webhook_deliveries']));
    } finally {
      await db.close();
    }
  }, 90_000);
});
