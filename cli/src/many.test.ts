import { describe, expect, it } from 'vitest';
import type { ApiAnswer } from './http.js';
import { UnreachableError } from './http.js';
import { type ItemOutcome, runMany } from './many.js';

const answerOf = (status: number): ApiAnswer => ({ status, headers: new Headers(), body: null });

function recorder() {
  const steps: boolean[] = [];
  const written: ItemOutcome[] = [];
  const progress = { done: (ok: boolean) => void steps.push(ok), waiting: () => {}, stop: () => {} };
  return { steps, written, options: (chunkSize: number) => ({ concurrency: 2, chunkSize, progress, onResult: (o: ItemOutcome) => void written.push(o) }) };
}

describe('runMany in chunks', () => {
  it('writes in input order whatever order a chunk answers in, one progress step per input', async () => {
    const inputs = ['a', 'b', 'c', 'd', 'e'];
    const { steps, written, options } = recorder();
    const chunks: string[][] = [];
    await runMany(inputs, async (chunk, answer) => {
      chunks.push([...chunk]);
      // Last first, as a batch's NDJSON lines come in completion order.
      for (let position = chunk.length - 1; position >= 0; position -= 1) answer(position, answerOf(chunk[position] === 'b' ? 404 : 200));
    }, options(3));
    expect(chunks).toEqual([['a', 'b', 'c'], ['d', 'e']]);
    expect(written.map((o) => [o.input, 'answer' in o ? o.answer.status : null])).toEqual([['a', 200], ['b', 404], ['c', 200], ['d', 200], ['e', 200]]);
    expect(steps.filter((ok) => !ok)).toHaveLength(1);
    expect(steps).toHaveLength(5);
  });

  it('makes the inputs a chunk left unanswered unreachable, with the reason when the call gave one', async () => {
    const { written, options } = recorder();
    await runMany(['a', 'b', 'c', 'd'], async (chunk, answer) => {
      answer(0, answerOf(200));
      if (chunk[0] === 'c') throw new UnreachableError('cannot reach http://x: ECONNRESET');
    }, options(2));
    expect(written.map((o) => ('answer' in o ? o.answer.status : o.unreachable))).toEqual([200, 'the batch ended without an answer for this input', 200, 'cannot reach http://x: ECONNRESET']);
  });
});
