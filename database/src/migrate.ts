/**
 * Versioned migrations (node-pg-migrate's SQL format), run at start by each owner of a schema (the
 * watcher, the ledger record) with its own folder, bookkeeping table and lock.
 *
 * node-pg-migrate drives any object with a pg-style `query(text, values)` passed as `dbClient`; it
 * sends each migration file as one parameterless script and its own bookkeeping as single statements.
 * The adapter below maps that onto the `Database` seam, so the same runner migrates PostgreSQL and
 * PGlite (whose `query` takes one statement only: scripts go through `exec`). Concurrent starters
 * queue on node-pg-migrate's advisory lock (`wait` mode): the first applies, the rest find nothing
 * left to run. All pending files apply in one transaction.
 */
import { runner } from 'node-pg-migrate';
import type { Database, DatabaseSession } from './database.js';

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

/** One schema's migrations: where its files are, where node-pg-migrate books them, its lock. */
export interface MigrationSet {
  readonly dir: string;
  readonly table: string;
  /** The owner's own advisory lock id, so that it never waits on another schema's migrations. */
  readonly lockId: number;
}

export interface MigrateOptions {
  /** Where node-pg-migrate's progress lines go; silent unless given. */
  readonly log?: (line: string) => void;
}

/** Applies every pending migration of `set`; the names applied (empty when the schema is current). */
export async function runMigrations(db: Database, set: MigrationSet, options: MigrateOptions = {}): Promise<string[]> {
  const log = options.log ?? (() => undefined);
  return db.session(async (session) => {
    const applied = await runner({
      dbClient: runnerClientOf(session),
      dir: set.dir,
      migrationsTable: set.table,
      direction: 'up',
      singleTransaction: true,
      checkOrder: true,
      advisoryLockMode: 'wait',
      lockValue: set.lockId,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    return applied.map((migration) => migration.name);
  });
}
