/** A list read whose cursor the store could not read: the client's error, named by its field. */
import { InvalidCursorError, type Page } from '../store/index.js';
import { invalidArgument } from './errors.js';

export async function pageOrInvalidCursor<T>(read: () => Promise<Page<T>>): Promise<Page<T>> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidCursorError) throw invalidArgument('cursor is not a cursor of this list; pass a nextCursor as given', 'cursor');
    throw error;
  }
}
