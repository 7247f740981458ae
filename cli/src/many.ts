/**
 * Many mode: the inputs (ASINs, GTINs, search terms) cut into chunks, at most `concurrency` chunks in
 * flight (p-limit), each input's answer recorded as it arrives and the results written in input
 * order. A chunk is one input for the per-input path (one call to the single-item REST route) or up
 * to 100 for POST /api/retail/batch (batch.ts); the ordering, output, progress (one step per input)
 * and exit code here are the same for both.
 */
import pLimit from 'p-limit';
import type { ApiAnswer } from './http.js';
import { UnreachableError } from './http.js';
import type { Progress } from './progress.js';

export type ItemOutcome = { readonly input: string; readonly answer: ApiAnswer } | { readonly input: string; readonly unreachable: string };

/**
 * Calls the service for a chunk of inputs and tells `answer` each input's answer (by its position in
 * the chunk) as it arrives. Throws UnreachableError when no answer came; inputs it never answered
 * are unreachable with that message.
 */
export type ChunkCall = (inputs: readonly string[], answer: (position: number, answer: ApiAnswer) => void) => Promise<void>;

export interface ManyOptions {
  readonly concurrency: number;
  /** Inputs per chunk (1: one call per input). */
  readonly chunkSize: number;
  readonly progress: Progress;
  /** Called once per input, in input order. */
  readonly onResult: (outcome: ItemOutcome) => void;
}

/** The per-input path: a chunk of one input is one call. */
export function perInput(callOne: (input: string) => Promise<ApiAnswer>): ChunkCall {
  return async (inputs, answer) => {
    for (const [position, input] of inputs.entries()) answer(position, await callOne(input));
  };
}

const NO_ANSWER = 'the batch ended without an answer for this input';

export async function runMany(inputs: readonly string[], call: ChunkCall, options: ManyOptions): Promise<ItemOutcome[]> {
  const limit = pLimit(options.concurrency);
  const outcomes: (ItemOutcome | undefined)[] = new Array(inputs.length);
  let next = 0;
  const flush = () => {
    while (next < inputs.length && outcomes[next]) options.onResult(outcomes[next++]!);
  };
  const record = (index: number, outcome: ItemOutcome) => {
    if (outcomes[index]) return; // a second answer for one input (a misbehaving server) is ignored
    outcomes[index] = outcome;
    options.progress.done('answer' in outcome && outcome.answer.status < 400);
    flush();
  };
  const chunks: number[] = [];
  for (let start = 0; start < inputs.length; start += options.chunkSize) chunks.push(start);
  await Promise.all(
    chunks.map((start) =>
      limit(async () => {
        const chunk = inputs.slice(start, start + options.chunkSize);
        let unanswered = NO_ANSWER;
        try {
          await call(chunk, (position, answer) => {
            if (position >= 0 && position < chunk.length) record(start + position, { input: chunk[position]!, answer });
          });
        } catch (error) {
          if (!(error instanceof UnreachableError)) throw error;
          unanswered = error.message;
        }
        chunk.forEach((input, position) => record(start + position, { input, unreachable: unanswered }));
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
