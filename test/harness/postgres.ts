/**
 * Throw-away PostgreSQL databases for tests and benchmarks on the machine's server (127.0.0.1:5432,
 * trust auth, user postgres; `PGHOST`/`PGPORT`/`PGUSER` override). Each gets a unique name and is
 * dropped afterwards, with its connections, so runs never see each other's data.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const server = {
  host: process.env.PGHOST ?? '127.0.0.1',
  port: Number(process.env.PGPORT ?? 5432),
  user: process.env.PGUSER ?? 'postgres',
};

function adminClient(): pg.Client {
  return new pg.Client({ ...server, database: 'postgres', connectionTimeoutMillis: 3000 });
}

function urlOf(database: string): string {
  return `postgres://${encodeURIComponent(server.user)}@${server.host}:${server.port}/${database}`;
}

/** Null when the server answers; otherwise the reason tests print when they skip. */
export async function postgresMissing(): Promise<string | null> {
  const client = adminClient();
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `no PostgreSQL server answers at ${server.host}:${server.port} as ${server.user} (${(error as Error).message}); PostgreSQL tests skipped`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  /** Drops the database, closing whatever is still connected to it; idempotent. */
  drop(): Promise<void>;
}

/** Creates an empty database named `<prefix>_<random>`. */
export async function createTestDatabase(prefix = 'watcher_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const client = adminClient();
  await client.connect();
  try {
    // Identifiers cannot be parameters; `name` is built here from a fixed prefix and hex digits.
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  let dropped = false;
  return {
    name,
    url: urlOf(name),
    async drop() {
      if (dropped) return;
      dropped = true;
      const admin = adminClient();
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
