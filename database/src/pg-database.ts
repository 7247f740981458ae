/** The `Database` seam on a `pg.Pool`: production, with `DATABASE_URL`. */
import pg from 'pg';
import type { Database, DatabaseSession, Queryable } from './database.js';
import { TYPE_PARSERS } from './type-parsers.js';

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function queryableOf(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as Row[];
    },
  };
}

export interface PostgresDatabaseOptions {
  readonly connectionString: string;
  /** Connections per process; the pool default of 10 unless set. */
  readonly maxConnections?: number;
}

/**
 * A checked-out client that loses its server while its holder is between statements (a transaction
 * waiting on other I/O) emits 'error' on itself, not on the pool: without a listener Node would exit.
 * The holder's next statement fails on its own; the broken client is destroyed at release, not reused.
 */
function watchCheckedOut(client: pg.PoolClient): { release(): void } {
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure = error;
  };
  client.on('error', onError);
  return {
    release() {
      client.off('error', onError);
      client.release(failure);
    },
  };
}

export function createPostgresDatabase(options: PostgresDatabaseOptions): Database {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10, types });
  // An idle client that loses its server emits here; without a listener Node would exit. The next
  // query gets a fresh connection, so logging is all there is to do.
  pool.on('error', (error) => console.error(`[database] idle PostgreSQL connection failed: ${error.message}`));
  return {
    engine: 'postgres',
    ...queryableOf(pool),
    async transaction(work) {
      const client = await pool.connect();
      const broken = watchCheckedOut(client);
      try {
        await client.query('BEGIN');
        const result = await work(queryableOf(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        broken.release();
      }
    },
    async session(work) {
      const client = await pool.connect();
      const broken = watchCheckedOut(client);
      const session: DatabaseSession = {
        ...queryableOf(client),
        async script<Row>(text: string) {
          // Without parameters node-postgres uses the simple protocol: several statements in one go,
          // one result per statement.
          const results = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
          const last = Array.isArray(results) ? results.at(-1) : results;
          return (last?.rows ?? []) as Row[];
        },
      };
      try {
        return await work(session);
      } finally {
        broken.release();
      }
    },
    close: () => pool.end(),
  };
}
