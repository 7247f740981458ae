import { abortReason } from '../resilience/clock.js';

/**
 * Concurrent identical requests share one run of `work` in this process. The shared run gets its
 * own signal that aborts only when every caller waiting on it has gone (one impatient client never
 * fails the others); each caller still leaves at its own deadline.
 */
export interface SingleFlight {
  run<T>(key: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<{ value: T; shared: boolean }>;
  readonly inFlight: number;
}

export function createSingleFlight(): SingleFlight {
  const flights = new Map<string, { promise: Promise<unknown>; waiters: number; controller: AbortController }>();
  return {
    async run<T>(key: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>) {
      if (signal.aborted) throw abortReason(signal);
      let flight = flights.get(key);
      const shared = flight !== undefined;
      if (!flight) {
        const controller = new AbortController();
        const created: { promise: Promise<unknown>; waiters: number; controller: AbortController } = { promise: Promise.resolve(), waiters: 0, controller };
        created.promise = (async () => {
          try {
            return await work(controller.signal);
          } finally {
            flights.delete(key);
          }
        })();
        created.promise.catch(() => undefined); // every waiter may have left; nobody else reads it
        flights.set(key, created);
        flight = created;
      }
      const current = flight;
      current.waiters++;
      let onAbort: (() => void) | undefined;
      const left = new Promise<never>((_, reject) => {
        onAbort = () => {
          if (--current.waiters === 0) current.controller.abort(abortReason(signal));
          reject(abortReason(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const value = (await Promise.race([current.promise, left])) as T;
        return { value, shared };
      } finally {
        signal.removeEventListener('abort', onAbort!);
        if (!signal.aborted) current.waiters--;
        left.catch(() => undefined);
      }
    },
    get inFlight() {
      return flights.size;
    },
  };
}
