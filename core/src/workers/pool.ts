import { Worker } from 'node:worker_threads';
import { CoreError } from '../errors.js';
import { abortReason } from '../resilience/clock.js';
import type { ParseAnswer, ParseTask, SerializedError } from './parse-worker.js';
import { runParser, type ParseArgs, type ParserId } from './parser-registry.js';

/**
 * Parses pages on worker threads so a 1–2 MB page never holds the gRPC server's event loop (a
 * product page takes tens of milliseconds of pure CPU in cheerio). Size 0 parses in-process.
 */
export interface ParsePool {
  parse<T = unknown>(parser: ParserId, html: string, args: ParseArgs, signal?: AbortSignal): Promise<T>;
  /**
   * The version of `parser` this pool runs, when it is not the registry's (a test's pool standing in
   * for a fixed parser): the page cache keys and the archive's parser names follow it.
   */
  version?(parser: ParserId): number;
  readonly size: number;
  /** Tasks waiting for a free worker. */
  readonly queued: number;
  close(): Promise<void>;
}

export interface ParsePoolOptions {
  /** Worker threads (PARSE_WORKERS); 0 = parse on the calling thread. */
  readonly size: number;
  /** Override of the worker script (tests). */
  readonly workerUrl?: URL;
}

/*
 * In development and tests this module runs from TypeScript sources, so the worker must too: a tiny
 * .mjs boot registers tsx in the worker and imports parse-worker.ts, with the workspace "source"
 * condition (Node 20 ignores `--import tsx` in a Worker's execArgv for the entry itself). A build
 * runs dist .js, whose worker is plain .js next to it.
 */
function workerFor(url?: URL): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return new Worker(url ?? new URL('./parse-worker.js', import.meta.url));
  const entry = (url ?? new URL('./parse-worker.ts', import.meta.url)).href;
  return new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), { execArgv: ['--conditions=source'], workerData: { entry } });
}

function rebuildError(error: SerializedError): Error {
  const cause = error.cause !== undefined ? new Error(error.cause) : undefined;
  if (error.reason !== undefined) return new CoreError(error.reason, error.message, { fieldPath: error.fieldPath ?? [], cause });
  return new Error(error.message, cause ? { cause } : undefined);
}

export function createParsePool(options: ParsePoolOptions): ParsePool {
  if (options.size <= 0) {
    return {
      parse: async <T>(parser: ParserId, html: string, args: ParseArgs) => runParser(parser, html, args) as T,
      size: 0,
      queued: 0,
      close: async () => undefined,
    };
  }
  type Pending = { task: ParseTask; resolve: (v: unknown) => void; reject: (e: unknown) => void };
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage(job.task);
    }
  };
  const spawn = () => {
    const worker = workerFor(options.workerUrl);
    worker.on('message', (answer: ParseAnswer) => {
      const job = busy.get(worker);
      busy.delete(worker);
      idle.push(worker);
      if (job && job.task.id === answer.id) {
        if (answer.ok) job.resolve(answer.value);
        else job.reject(rebuildError(answer.error));
      }
      dispatch();
    });
    // A crashed worker fails its task and is replaced; the pool keeps its size.
    worker.on('error', (error) => {
      busy.get(worker)?.reject(error);
      busy.delete(worker);
    });
    worker.on('exit', () => {
      busy.get(worker)?.reject(new Error('parse worker exited'));
      busy.delete(worker);
      const i = idle.indexOf(worker);
      if (i >= 0) idle.splice(i, 1);
      if (!closed) spawn();
    });
    worker.unref();
    idle.push(worker);
    dispatch();
  };
  // Threads start on the first parse: a core whose handlers never use the pool costs nothing.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (let i = 0; i < options.size; i++) spawn();
  };

  return {
    size: options.size,
    get queued() {
      return queue.length;
    },
    parse<T>(parser: ParserId, html: string, args: ParseArgs, signal?: AbortSignal): Promise<T> {
      if (closed) return Promise.reject(new Error('parse pool is closed'));
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return new Promise<T>((resolve, reject) => {
        const job: Pending = { task: { id: nextId++, parser, html, args }, resolve: resolve as (v: unknown) => void, reject };
        // A task still queued when its call gives up is dropped; one already running finishes.
        signal?.addEventListener(
          'abort',
          () => {
            const i = queue.indexOf(job);
            if (i >= 0) {
              queue.splice(i, 1);
              reject(abortReason(signal));
            }
          },
          { once: true },
        );
        queue.push(job);
        start();
        dispatch();
      });
    },
    async close() {
      closed = true;
      started = true;
      for (const job of queue.splice(0)) job.reject(new Error('parse pool is closed'));
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
