/**
 * How values come back from either engine, declared once: node-postgres and PGlite each have their
 * own defaults (int8 as string vs number, numeric as string), so both are given these.
 */

/** PostgreSQL's built-in type OIDs (stable across versions). */
const INT8 = 20;
const NUMERIC = 1700;

export const TYPE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  // Identifiers (events, deliveries, snapshots) are bigint: text keeps every digit and is what the
  // wire contract carries; counts are cast to integer in SQL where a number is wanted.
  [INT8]: (text) => text,
  // Prices: `numeric` keeps them exact in the database; callers work in major units as JS numbers.
  [NUMERIC]: (text) => Number(text),
};
