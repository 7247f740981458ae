/**
 * The `Database` seam on embedded PGlite (PostgreSQL compiled to WebAssembly, in this process): the
 * one-process `npm start` keeps its data in a directory; tests may run it in memory. PGlite has one
 * connection, which its own `transaction()` holds exclusively, so transactions stay isolated.
 * One data directory belongs to one process: PGlite does not share it.
 */
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, DatabaseSession, Queryable } from './database.js';
import { TYPE_PARSERS } from './type-parsers.js';

function queryableOf(client: PGlite | Transaction): Queryable {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await client.query<Row>(text, params as unknown[]);
      return result.rows;
    },
  };
}

/** Opens PGlite in `dataDir` (created when missing), or in memory when `dataDir` is undefined. */
export async function createPgliteDatabase(dataDir?: string): Promise<Database> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, { parsers: TYPE_PARSERS });
  const base = queryableOf(pglite);
  const session: DatabaseSession = {
    ...base,
    async script<Row>(text: string) {
      const results = await pglite.exec(text);
      return (results.at(-1)?.rows ?? []) as Row[];
    },
  };
  return {
    engine: 'pglite',
    ...base,
    transaction: (work) => pglite.transaction((tx) => work(queryableOf(tx))),
    // The single connection is the session.
    session: (work) => work(session),
    close: () => pglite.close(),
  };
}
