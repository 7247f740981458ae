/**
 * Versioned migrations (watcher/migrations/*.sql, node-pg-migrate's SQL format), run at start.
 *
 * node-pg-migrate drives any object with a pg-style `query(text, values)` passed as `dbClient`; it
 * sends each migration file as one parameterless script and its own bookkeeping as single statements.
 * The adapter below maps that onto the `Database` seam, so the same runner migrates PostgreSQL and
 * PGlite (whose `query` takes one statement only: scripts go through `exec`). Concurrent starters
 * queue on node-pg-migrate's advisory lock (`wait` mode): the first applies, the rest find nothing
 * left to run. All pending files apply in one transaction.
 */
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Database, DatabaseSession } from './database.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
export const MIGRATIONS_TABLE = 'watcher_migrations';
/** The watcher's own lock id, so that it never waits on another application's migrations. */
const MIGRATION_LOCK_ID = 0x77617463; // "watc"

type RunnerClient = Parameters<typeof runner>[0] extends infer O ? (O extends { dbClient: infer C } ? C : never) : never;

function runnerClientOf(session: DatabaseSession): RunnerClient {
  const client = {
    async query(text: string | { text: string; values?: unknown[] }, values?: unknown[]) {
      const sql = typeof text === 'string' ? text : text.text;
      const params = values ?? (typeof text === 'string' ? undefined : text.values);
      const rows = params?.length ? await session.query(sql, params) : await session.script(sql);
      return { rows };
    },
  };
  return client as unknown as RunnerClient;
}

export interface MigrateOptions {
  /** Where node-pg-migrate's progress lines go; silent unless given. */
  readonly log?: (line: string) => void;
}

/** Applies every pending migration; the names applied (empty when the schema is current). */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const log = options.log ?? (() => undefined);
  return db.session(async (session) => {
    const applied = await runner({
      dbClient: runnerClientOf(session),
      dir: MIGRATIONS_DIR,
      migrationsTable: MIGRATIONS_TABLE,
      direction: 'up',
      singleTransaction: true,
      checkOrder: true,
      advisoryLockMode: 'wait',
      lockValue: MIGRATION_LOCK_ID,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    return applied.map((migration) => migration.name);
  });
}
