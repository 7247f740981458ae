import { parentPort } from 'node:worker_threads';
import { isCoreError } from '../errors.js';
import { isParserId, runParser, type ParseArgs } from './parser-registry.js';

/** A parse task and its answer as they cross the thread boundary (structured clone). */
export interface ParseTask {
  readonly id: number;
  readonly parser: string;
  readonly html: string;
  readonly args: ParseArgs;
}

export type ParseAnswer =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

/** A CoreError (or any error) as data: the pool rebuilds the CoreError on the main thread. */
export interface SerializedError {
  readonly reason?: number;
  readonly message: string;
  readonly fieldPath?: readonly string[];
  readonly cause?: string;
}

function serializeError(error: unknown): SerializedError {
  const cause = error instanceof Error && error.cause !== undefined ? String(error.cause instanceof Error ? error.cause.message : error.cause) : undefined;
  if (isCoreError(error)) return { reason: error.reason, message: error.message, fieldPath: [...error.fieldPath], ...(cause ? { cause } : {}) };
  return { message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ...(cause ? { cause } : {}) };
}

parentPort?.on('message', (task: ParseTask) => {
  let answer: ParseAnswer;
  try {
    if (!isParserId(task.parser)) throw new Error(`unknown parser ${task.parser}`);
    answer = { id: task.id, ok: true, value: runParser(task.parser, task.html, task.args) };
  } catch (error) {
    answer = { id: task.id, ok: false, error: serializeError(error) };
  }
  parentPort!.postMessage(answer);
});
