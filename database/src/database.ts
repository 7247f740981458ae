/**
 * The one seam between storage code (the watcher's store, the ledger's record) and a PostgreSQL
 * engine: parameterised queries and a transaction helper. Implemented by a `pg.Pool` (production,
 * `DATABASE_URL`) and by embedded PGlite (the one-process `npm start` and tests); both speak the same
 * SQL, so one behaviour suite holds them to the same results.
 */

/** Something that runs one statement with `$1`-style parameters and returns its rows. */
export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  /** Which engine answers: tests and logs say so; code never branches on it. */
  readonly engine: 'postgres' | 'pglite';
  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it
   * throws. Inside, use only the handle it is given (PGlite has a single connection: the outer handle
   * waits for the transaction to end).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection held for its whole duration, outside any transaction: what
   * session-level advisory locks and node-pg-migrate's runner (its own BEGIN/COMMIT) need.
   */
  session<T>(work: (session: DatabaseSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** One held connection. */
export interface DatabaseSession extends Queryable {
  /** Runs a script of one or more statements without parameters; the rows of the last one. */
  script<Row = Record<string, unknown>>(text: string): Promise<Row[]>;
}
