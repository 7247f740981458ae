/**
 * The readable output of a response on a terminal (cli-table3): the record's scalars as a
 * two-column table, then each list of records (search results, offers, reviews) as a table with one
 * row per item and as many columns as fit the terminal's width, in the order the API writes them.
 */
import Table from 'cli-table3';
import { type Json, flatten, scalarText } from './flatten.js';

/** Widest a list column gets before its cells are cut with "…". */
const MAX_COLUMN = 36;
/** Border and padding a column costs besides its text. */
const COLUMN_OVERHEAD = 3;

/** No colours; compact: no rule between rows, only under the header. */
const PLAIN = { head: [], border: [], compact: true };

function keyValueTable(rows: [string, string][], width: number): string {
  const keyWidth = Math.min(44, Math.max(...rows.map(([key]) => key.length))) + 2;
  const table = new Table({ style: PLAIN, colWidths: [keyWidth, Math.max(20, width - keyWidth - COLUMN_OVERHEAD)], wordWrap: true });
  for (const row of rows) table.push(row);
  return table.toString();
}

const isLink = (text: string | undefined) => text !== undefined && /^https?:\/\//.test(text);

/**
 * The columns of a list that fit: every leaf path in order of first appearance, links last (they
 * are long and the least readable in a cell), while the width allows.
 */
function listTable(items: Record<string, Json>[], width: number): string {
  const rows = items.map((item) => new Map(flatten(item, 'summarize').leaves));
  const all = [...new Set(rows.flatMap((row) => [...row.keys()]))];
  const links = new Set(all.filter((path) => rows.every((row) => !row.has(path) || isLink(row.get(path)))));
  const paths = [...all.filter((path) => !links.has(path)), ...links];
  const chosen: { path: string; width: number }[] = [];
  let used = 1;
  for (const path of paths) {
    const text = Math.max(path.length, ...rows.map((row) => row.get(path)?.length ?? 0));
    const columnWidth = Math.min(MAX_COLUMN, text) + 2;
    if (used + columnWidth + 1 > width && chosen.length > 0) break;
    chosen.push({ path, width: columnWidth });
    used += columnWidth + 1;
  }
  const table = new Table({ head: chosen.map((c) => c.path), style: PLAIN, colWidths: chosen.map((c) => c.width) });
  for (const row of rows) table.push(chosen.map((c) => row.get(c.path) ?? ''));
  const hidden = paths.length - chosen.length;
  return hidden > 0 ? `${table.toString()}\n(${hidden} more columns: --json shows everything)` : table.toString();
}

/** A response's data as text for a terminal `width` characters wide. */
export function renderTable(data: Json, width: number): string {
  if (data === null || typeof data !== 'object') return scalarText(data);
  const { leaves, lists } = flatten(data);
  const parts: string[] = [];
  if (leaves.length > 0) parts.push(keyValueTable(leaves, width));
  for (const [path, items] of lists) parts.push(`${path} (${items.length})\n${listTable(items, width)}`);
  return parts.length > 0 ? parts.join('\n\n') : '(empty)';
}

export interface ManyRow {
  readonly input: string;
  readonly status: string;
  /** The first error's message, for a failed input. */
  readonly error?: string;
  readonly data?: Json;
}

/** Rows of many results (one per input) as one table: input, status, error (when any failed), then what fits of each record. */
export function renderManyTable(rows: readonly ManyRow[], width: number): string {
  const anyError = rows.some((row) => row.error !== undefined);
  return listTable(
    rows.map(({ input, status, error, data }) => ({
      input,
      status,
      ...(anyError ? { error: error ?? '' } : {}),
      ...(data !== null && typeof data === 'object' && !Array.isArray(data) ? data : data === undefined ? {} : { value: data }),
    })),
    width,
  );
}
