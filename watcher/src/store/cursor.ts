/**
 * Keyset pagination: a page is "the next `limit` rows after this key", so it stays complete and stable
 * while rows are inserted (no OFFSET). Cursors are opaque to clients; a malformed one is the client's
 * error, never a crash or a silent first page.
 */
import { isRowId } from './ids.js';

export interface Page<T> {
  readonly items: T[];
  /** Null on the last page. */
  readonly nextCursor: string | null;
}

export class InvalidCursorError extends Error {
  constructor(cursor: string) {
    super(`invalid cursor: ${JSON.stringify(cursor.slice(0, 64))}`);
    this.name = 'InvalidCursorError';
  }
}

/** The largest page any list answers; callers validate their own limits below it. */
export const MAX_PAGE_SIZE = 1000;

export function checkedPageSize(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new RangeError(`page size must be 1 to ${MAX_PAGE_SIZE}, got ${limit}`);
  return limit;
}

/** A cursor that is a bigint row id (events, deliveries): the id itself, as the stream resumes from it. */
export function idCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  if (!isRowId(cursor)) throw new InvalidCursorError(cursor);
  return cursor;
}

/** A cursor over (time, id): base64url of the two, opaque. */
export function encodeTimeIdCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

export function decodeTimeIdCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (cursor === undefined) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const time = new Date(at as string);
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(time.getTime())) return { at: time, id };
  } catch {
    // fall through: not our cursor
  }
  throw new InvalidCursorError(cursor);
}

/** Splits a page fetched with `limit + 1` rows into the page and the cursor after its last row. */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): Page<T> {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  return { items, nextCursor: cursorOf(items[limit - 1]!) };
}
