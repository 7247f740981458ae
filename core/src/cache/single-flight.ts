import { abortReason } from '../resilience/clock.js';

/**
 * Concurrent identical requests share one run of `work` in this process. The shared run gets its
 * own signal that aborts only when every caller waiting on it has gone (one impatient client never
 * fails the others); each caller still leaves at its own deadline. The run may work until the latest
 * deadline of the callers that joined it (`deadline()`, read when it decides, e.g. on a retry), so a
 * caller with a short deadline who came first does not cut the work short for one who came later.
 */
export interface SingleFlight {
  run<T>(
    key: string,
    signal: AbortSignal,
    work: (signal: AbortSignal, deadline: () => number | undefined) => Promise<T>,
    /** This caller's deadline (epoch ms); none means the work may take as long as it needs. */
    deadlineAt?: number,
  ): Promise<{ value: T; shared: boolean }>;
  readonly inFlight: number;
}

interface Flight {
  promise: Promise<unknown>;
  waiters: number;
  controller: AbortController;
  /** The latest deadline of the callers so far; undefined once one of them had none. */
  deadlineAt: number | undefined;
}

export function createSingleFlight(): SingleFlight {
  const flights = new Map<string, Flight>();
  return {
    async run<T>(key: string, signal: AbortSignal, work: (signal: AbortSignal, deadline: () => number | undefined) => Promise<T>, deadlineAt?: number) {
      if (signal.aborted) throw abortReason(signal);
      let flight = flights.get(key);
      const shared = flight !== undefined;
      if (flight) {
        flight.deadlineAt = flight.deadlineAt === undefined || deadlineAt === undefined ? undefined : Math.max(flight.deadlineAt, deadlineAt);
      } else {
        const controller = new AbortController();
        const created: Flight = { promise: Promise.resolve(), waiters: 0, controller, deadlineAt };
        created.promise = (async () => {
          try {
            return await work(controller.signal, () => created.deadlineAt);
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
