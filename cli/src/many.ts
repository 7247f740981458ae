/**
 * Many mode: one call per input line (ASINs, GTINs, search terms), at most `concurrency` in flight
 * (p-limit), results written in input order as they complete. Each input is one call to the
 * single-item REST route today. The seam for POST /api/retail/batch (issue 15) is `callOne`: a caller
 * that sends inputs in batches and resolves each input's answer can replace it, and the ordering,
 * output, progress and exit code here stay as they are.
 */
import pLimit from 'p-limit';
import type { ApiAnswer } from './http.js';
import { UnreachableError } from './http.js';
import type { Progress } from './progress.js';

export type ItemOutcome = { readonly input: string; readonly answer: ApiAnswer } | { readonly input: string; readonly unreachable: string };

export interface ManyOptions {
  readonly concurrency: number;
  readonly progress: Progress;
  /** Called once per input, in input order. */
  readonly onResult: (outcome: ItemOutcome) => void;
}

export async function runMany(inputs: readonly string[], callOne: (input: string) => Promise<ApiAnswer>, options: ManyOptions): Promise<ItemOutcome[]> {
  const limit = pLimit(options.concurrency);
  const outcomes: (ItemOutcome | undefined)[] = new Array(inputs.length);
  let next = 0;
  const flush = () => {
    while (next < inputs.length && outcomes[next]) options.onResult(outcomes[next++]!);
  };
  await Promise.all(
    inputs.map((input, index) =>
      limit(async () => {
        let outcome: ItemOutcome;
        try {
          outcome = { input, answer: await callOne(input) };
        } catch (error) {
          if (!(error instanceof UnreachableError)) throw error;
          outcome = { input, unreachable: error.message };
        }
        outcomes[index] = outcome;
        options.progress.done('answer' in outcome && outcome.answer.status < 400);
        flush();
      }),
    ),
  );
  options.progress.stop();
  return outcomes as ItemOutcome[];
}

/** Input lines: trimmed, blank lines and `#` comments left out. */
export function inputLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
}
