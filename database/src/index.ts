/**
 * PostgreSQL for the parts that keep records (the watcher, the ledger record): one seam over a
 * `pg.Pool` or embedded PGlite, and one migration runner each owner calls with its own files.
 */
export type { Database, DatabaseSession, Queryable } from './database.js';
export { createPostgresDatabase, type PostgresDatabaseOptions } from './pg-database.js';
export { createPgliteDatabase } from './pglite-database.js';
export { runMigrations, type MigrateOptions, type MigrationSet } from './migrate.js';
