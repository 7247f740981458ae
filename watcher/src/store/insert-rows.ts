/**
 * Multi-row INSERTs with parameters: `rows` cut into statements of at most `perStatement` rows,
 * each `VALUES ($1, $2, …), (…)`. The only SQL built here is the placeholder list; every value is a
 * parameter (PostgreSQL and PGlite alike; arrays of bytea are not portable between them, rows are).
 */
import type { Queryable } from '@retail/database';

/** Rows of values in `target`'s column order; `suffix` is appended to each statement (ON CONFLICT, RETURNING). */
export async function insertRows<Row = Record<string, unknown>>(
  q: Queryable,
  target: string,
  perStatement: number,
  rows: readonly (readonly unknown[])[],
  suffix = '',
): Promise<Row[]> {
  const out: Row[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const slice = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = slice.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(', ')})`);
    out.push(...(await q.query<Row>(`INSERT INTO ${target} VALUES ${tuples.join(', ')} ${suffix}`, params)));
  }
  return out;
}
