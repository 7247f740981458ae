/** The watcher's migrations (watcher/migrations/*.sql), run at start through @retail/database's runner. */
import { fileURLToPath } from 'node:url';
import { runMigrations, type Database, type MigrateOptions } from '@retail/database';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
export const MIGRATIONS_TABLE = 'watcher_migrations';
/** The watcher's own lock id, so that it never waits on another application's migrations. */
const MIGRATION_LOCK_ID = 0x77617463; // "watc"

/** Applies every pending migration; the names applied (empty when the schema is current). */
export function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  return runMigrations(db, { dir: MIGRATIONS_DIR, table: MIGRATIONS_TABLE, lockId: MIGRATION_LOCK_ID }, options);
}
