/**
 * Reads a walk's items several at a time and applies their results one by one in the walk's order.
 * Re-parsing sends a job's pages to the core `concurrency` at a time (the core parses on its worker
 * pool) while its cursor still moves page by page, each page's corrections and the cursor's move in
 * one transaction: so a job stopped anywhere has applied exactly the pages before its cursor, and a
 * resumed one reads again only the pages it had in hand (read, not yet applied), never applying one
 * twice or skipping one.
 *
 * The limit is p-limit's (already a dependency of the watcher); the ordering and the lookahead are
 * what it does not do. `lookahead` bounds the items started and not yet applied (each holds a page
 * body in memory): more than `concurrency`, so a slow page at the head does not leave the core idle.
 */
import pLimit from 'p-limit';

export interface ReadInOrderOptions<T, R> {
  /** Reads in flight at most. */
  readonly concurrency: number;
  /** Items started and not yet applied at most (at least `concurrency`). */
  readonly lookahead: number;
  readonly read: (item: T) => Promise<R>;
  /** Applies an item's result; false stops the walk there (nothing after it is applied). */
  readonly apply: (item: T, result: R) => Promise<boolean>;
  /**
   * Asked as each item is started: while true, that item's read is awaited before the next is
   * started (re-parsing learns the current parser from the first answer, and skips pages already
   * read by it without sending them).
   */
  readonly oneAtATime?: () => boolean;
}

type Settled<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

/**
 * Resolves 'done' when every item was applied, 'stopped' when `apply` said false. A failed read or
 * apply rejects, once the items before it are applied and the reads in flight have settled (their
 * results dropped); no read starts after a failure is known, and no item after the failed one is
 * applied.
 */
export async function readInOrder<T, R>(items: AsyncIterable<T>, options: ReadInOrderOptions<T, R>): Promise<'done' | 'stopped'> {
  const limit = pLimit(options.concurrency);
  const lookahead = Math.max(options.lookahead, options.concurrency);
  let stopped = false;
  // Settled results, never rejections: a read failing while an earlier item is applied must not be an
  // unhandled rejection; it is thrown when its turn comes.
  const pending: Array<{ readonly item: T; readonly result: Promise<Settled<R>> }> = [];

  const start = (item: T) => {
    const result = limit(async () => {
      if (stopped) throw new Error('the walk stopped before this read started');
      try {
        return await options.read(item);
      } catch (error) {
        // The walk ends at this item: reads queued behind it are not started (set before p-limit
        // starts the next one).
        stopped = true;
        throw error;
      }
    }).then((value): Settled<R> => ({ ok: true, value }), (error: unknown): Settled<R> => ({ ok: false, error }));
    pending.push({ item, result });
    return result;
  };
  const applyHead = async (): Promise<boolean> => {
    const head = pending.shift()!;
    const settled = await head.result;
    if (!settled.ok) throw settled.error;
    return options.apply(head.item, settled.value);
  };
  const finish = async () => {
    stopped = true;
    await Promise.all(pending.map((p) => p.result));
  };

  try {
    for await (const item of items) {
      const read = start(item);
      if (options.oneAtATime?.()) await read;
      while (pending.length >= lookahead) {
        if (!(await applyHead())) {
          await finish();
          return 'stopped';
        }
      }
    }
    while (pending.length > 0) {
      if (!(await applyHead())) {
        await finish();
        return 'stopped';
      }
    }
    return 'done';
  } catch (error) {
    await finish();
    throw error;
  }
}
