import { describe, expect, it } from 'vitest';
import { readInOrder } from './read-in-order.js';

async function* itemsOf<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Reads that finish when the test says so (a map of item → resolve/reject), counting how many run at once. */
function controlledReads() {
  const waiting = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const started: number[] = [];
  let inFlight = 0;
  let most = 0;
  const read = (item: number) => new Promise<string>((resolve, reject) => {
    started.push(item);
    inFlight += 1;
    most = Math.max(most, inFlight);
    waiting.set(item, {
      resolve: (v) => { inFlight -= 1; resolve(v); },
      reject: (e) => { inFlight -= 1; reject(e); },
    });
  });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setImmediate(r));
    expect(check()).toBe(true);
  };
  return { read, waiting, started, until, most: () => most };
}

describe('readInOrder', () => {
  it('applies in the walk\'s order though reads finish out of order, with never more than `concurrency` reads at once', async () => {
    const reads = controlledReads();
    const applied: string[] = [];
    const walk = readInOrder(itemsOf([1, 2, 3, 4, 5, 6]), {
      concurrency: 3, lookahead: 6, read: reads.read, apply: async (item, value) => { applied.push(`${item}:${value}`); return true; },
    });
    await reads.until(() => reads.started.length === 3);
    reads.waiting.get(3)!.resolve('c');
    reads.waiting.get(2)!.resolve('b');
    await reads.until(() => reads.started.length === 5);
    expect(applied).toEqual([]); // 1 is still being read: nothing after it is applied
    reads.waiting.get(1)!.resolve('a');
    for (const item of [6, 5, 4]) {
      await reads.until(() => reads.waiting.has(item));
      reads.waiting.get(item)!.resolve(String.fromCharCode(96 + item));
    }
    expect(await walk).toBe('done');
    expect(applied).toEqual(['1:a', '2:b', '3:c', '4:d', '5:e', '6:f']);
    expect(reads.most()).toBe(3);
  });

  it('on a failed read applies the items before it, none after, starts no further read, and rejects with its error', async () => {
    const reads = controlledReads();
    const applied: number[] = [];
    const walk = readInOrder(itemsOf([1, 2, 3, 4, 5, 6, 7, 8]), {
      concurrency: 2, lookahead: 4, read: reads.read, apply: async (item) => { applied.push(item); return true; },
    });
    const failed = walk.catch((error: Error) => error.message);
    await reads.until(() => reads.started.length === 2);
    reads.waiting.get(2)!.reject(new Error('core unreachable'));
    await new Promise((r) => setImmediate(r));
    reads.waiting.get(1)!.resolve('a');
    expect(await failed).toBe('core unreachable');
    expect(applied).toEqual([1]);
    // Read 3 was queued behind the failure and never started.
    expect(reads.started).toEqual([1, 2]);
  });

  it('stops where `apply` says false, after the reads in flight settle', async () => {
    const applied: number[] = [];
    const result = await readInOrder(itemsOf([1, 2, 3, 4, 5]), {
      concurrency: 2, lookahead: 2, read: async (item) => item, apply: async (item) => { applied.push(item); return item < 3; },
    });
    expect(result).toBe('stopped');
    expect(applied).toEqual([1, 2, 3]);
  });

  it('reads one at a time while asked to, then `concurrency` at a time', async () => {
    const reads = controlledReads();
    let learned = false;
    const walk = readInOrder(itemsOf([1, 2, 3, 4]), {
      concurrency: 3, lookahead: 3, oneAtATime: () => !learned, read: reads.read, apply: async () => true,
    });
    await reads.until(() => reads.started.length === 1);
    await new Promise((r) => setImmediate(r));
    expect(reads.started).toEqual([1]);
    learned = true;
    reads.waiting.get(1)!.resolve('a');
    await reads.until(() => reads.started.length === 4);
    for (const item of [2, 3, 4]) reads.waiting.get(item)!.resolve('x');
    expect(await walk).toBe('done');
  });
});
