/**
 * Time as the resilience layer sees it. Injected so tests drive back-off, breaker and bucket timing
 * by hand instead of sleeping (no timed assertions).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/**
 * A clock tests move by hand: `advance(ms)` moves time and resolves every sleep that is due, in
 * order. Sleeps with an aborted signal reject at once.
 */
export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
  /** Sleeps not yet due. */
  readonly pendingSleeps: number;
}

/** Runs every pending promise continuation (one macrotask turn; no time passes). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createManualClock(start = 1_700_000_000_000): ManualClock {
  let now = start;
  const sleepers: { at: number; resolve: () => void }[] = [];
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(abortReason(signal));
          return;
        }
        const entry = { at: now + Math.max(0, ms), resolve };
        sleepers.push(entry);
        signal?.addEventListener(
          'abort',
          () => {
            const i = sleepers.indexOf(entry);
            if (i >= 0) sleepers.splice(i, 1);
            reject(abortReason(signal));
          },
          { once: true },
        );
      });
    },
    async advance(ms) {
      const target = now + ms;
      await settle(); // let callers reach their sleep before time moves
      for (;;) {
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers[0];
        if (!next || next.at > target) break;
        sleepers.shift();
        now = next.at;
        next.resolve();
        await settle(); // the woken task runs (and maybe sleeps again) before the next one is due
      }
      now = target;
    },
    get pendingSleeps() {
      return sleepers.length;
    },
  };
}
