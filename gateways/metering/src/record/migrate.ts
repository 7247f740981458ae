/** The ledger record's migrations (gateways/metering/migrations/*.sql), run at start through @retail/database's runner. */
import { fileURLToPath } from 'node:url';
import type { Database } from '@retail/database/database';
import { runMigrations, type MigrateOptions } from '@retail/database/migrate';

export const RECORD_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
export const RECORD_MIGRATIONS_TABLE = 'ledger_migrations';
/** The record's own lock id: it never waits on the watcher's migrations in a shared database. */
const RECORD_MIGRATION_LOCK_ID = 0x6c656467; // "ledg"

/** Applies every pending migration of the record; the names applied. */
export function migrateRecord(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  return runMigrations(db, { dir: RECORD_MIGRATIONS_DIR, table: RECORD_MIGRATIONS_TABLE, lockId: RECORD_MIGRATION_LOCK_ID }, options);
}
