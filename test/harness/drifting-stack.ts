/**
 * `npm start`'s one process against the replay server's timeline product page, whose layout a test
 * drifts and restores (test/replay/layout-drift.ts), with no page cache so every call is a parse:
 * what the data-incident tests (test/app/data-incident-surfaces, skip-on-incident) share.
 */
import type { RunningStack } from '../../app/src/stack.js';
import type { LayoutDrift } from '../replay/layout-drift.js';
import { createTimeline } from '../replay/timeline.js';
import { type OneProcess, startOneProcess } from './one-process.js';

export const DRIFT_ASIN = 'B0FXTIME01';
/** Longer than the core's batch of parses (50 ms) and its judgement of the window. */
export const SETTLE_MS = 150;

export interface DriftingStack {
  readonly stack: RunningStack;
  /** A plain product read of DRIFT_ASIN over REST, `query` appended (`&skipOnIncident=…`). */
  product(query?: string): Promise<Response>;
  /** `times` plain product reads, each parsed and judged (SETTLE_MS apart); the last answer. Throws on a non-200. */
  readProducts(times: number): Promise<Response>;
  stop(): Promise<void>;
}

/** Starts the stack; the replay server serves the page with `drift.current` applied at each request. */
export async function startDriftingStack(drift: { current: LayoutDrift | undefined }): Promise<DriftingStack> {
  const running: OneProcess = await startOneProcess({ DEV_UNITS: '1000', CACHE_MAX_BYTES: '0' }, { timeline: createTimeline({ asins: [DRIFT_ASIN] }), drift });
  const { stack } = running;
  const product = (query = '') => fetch(`${stack.url}/api/retail/product?asin=${DRIFT_ASIN}${query}`, { headers: { 'API-KEY': stack.devKey } });
  return {
    stack,
    product,
    async readProducts(times) {
      let last: Response | undefined;
      for (let i = 0; i < times; i++) {
        last = await product();
        if (last.status !== 200) throw new Error(`product read ${i + 1} of ${times} answered ${last.status}: ${await last.text()}`);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
      return last!;
    },
    stop: () => running.stop(),
  };
}
