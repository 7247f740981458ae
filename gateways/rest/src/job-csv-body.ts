/**
 * A job as CSV (RFC 4180, UTF-8, a byte-order mark tolerated; parsed as it streams in by csv-parse):
 * a header row names the columns, each later row is one item. The columns are `operation` (the
 * item's operation, as a batch item names it: `product`, `product/offers`…) unless `?operation=`
 * gives one for every row, and any parameter of the item operations (`asin`, `gtin`, `url`,
 * `domain`, `page`…), written as in a query string. An empty cell is a parameter not given. A row
 * whose cells do not fit (a parameter its operation does not take, a bad value, the wrong number
 * of cells) is that item's 400; a header without a usable column refuses the whole call.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { RULE_MESSAGES } from '@retail/contract';
import { BATCH_REGISTRY, type JobItems, batchItemNamed, displayName } from '@retail/gateway-shared';
import { BodyRefusal } from './job-body-refusal.js';

const OPERATION_COLUMN = 'operation';

/** The parameters any item operation takes: the columns a header may name besides `operation`. */
export const CSV_PARAMETER_COLUMNS: ReadonlySet<string> = new Set(BATCH_REGISTRY.items.flatMap((item) => item.op.parameters.map((p) => p.name)));

/** A row longer than this is no item of ours (a URL is at most 2,048 characters). */
const MAX_ROW_BYTES = 16 * 1024;

function checkHeader(header: readonly string[], operation: string | undefined): void {
  const unknown = header.find((name) => name !== OPERATION_COLUMN && !CSV_PARAMETER_COLUMNS.has(name));
  if (unknown !== undefined) {
    throw new BodyRefusal(400, `${RULE_MESSAGES.unknownParameter(displayName(unknown))}: a column is "operation" or a parameter of an item operation (${[...CSV_PARAMETER_COLUMNS].join(', ')})`, ['body', 'columns', displayName(unknown)]);
  }
  const repeated = header.find((name, i) => header.indexOf(name) !== i);
  if (repeated !== undefined) throw new BodyRefusal(400, `the column ${displayName(repeated)} is given twice`, ['body', 'columns', displayName(repeated)]);
  const hasColumn = header.includes(OPERATION_COLUMN);
  if (hasColumn && operation !== undefined) throw new BodyRefusal(400, 'give the operation once: as the "operation" column or as ?operation=, not both', ['query', 'operation']);
  if (!hasColumn && operation === undefined) throw new BodyRefusal(400, 'the CSV names no operation: add an "operation" column or ?operation=', ['body', 'columns']);
  if (operation !== undefined && !batchItemNamed(operation)) throw new BodyRefusal(400, RULE_MESSAGES.enumValue('operation', BATCH_REGISTRY.items.map((i) => i.name)), ['query', 'operation']);
  if (!header.some((name) => CSV_PARAMETER_COLUMNS.has(name))) throw new BodyRefusal(400, 'the CSV has no parameter column (asin, gtin, url, …)', ['body', 'columns']);
}

export async function readCsvItems(body: Readable, items: JobItems, operation: string | undefined): Promise<void> {
  const rows = body.pipe(parse({ bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, max_record_size: MAX_ROW_BYTES }));
  let header: string[] | undefined;
  try {
    for await (const row of rows as AsyncIterable<string[]>) {
      if (!header) {
        header = row;
        checkHeader(header, operation);
        continue;
      }
      if (row.length !== header.length) {
        // Its operation is known only from ?operation= (a row that does not fit has no trusted operation cell).
        items.refuse(`row ${items.count + 1} has ${row.length} cells; the header has ${header.length}`, [], operation);
        continue;
      }
      const params: Record<string, string> = {};
      let rowOperation = operation;
      header.forEach((name, i) => {
        const cell = row[i] ?? '';
        if (name === OPERATION_COLUMN) rowOperation = cell === '' ? undefined : cell;
        else if (cell !== '') params[name] = cell;
      });
      items.add({ operation: rowOperation, params }, { style: 'rest', text: true });
    }
  } catch (error) {
    if (error instanceof BodyRefusal) throw error;
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('CSV_')) throw new BodyRefusal(400, `the CSV body is malformed: ${(error as Error).message}`);
    throw error;
  }
  if (!header) throw new BodyRefusal(400, 'the CSV body has no header row', ['body']);
}
