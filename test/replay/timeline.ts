/**
 * Products whose page changes over time, for the watcher's tests and demos: each moves through
 * TIMELINE_STATES on demand (`advance`, `set`, or the replay server's admin endpoint), or on its own
 * every `stepMs` when given (a demo that shows events without anyone pressing a button). Tests use
 * the on-demand steps: deterministic, no sleeping on wall time.
 */
import { normalizeHost, normalizePath } from './corpus-index.js';
import { TIMELINE_ASIN, TIMELINE_STATES, timelinePage, type TimelineState } from './timeline-page.js';

export interface TimelineOptions {
  /** The ASINs on amazon.com that follow the story (default: TIMELINE_ASIN). */
  readonly asins?: readonly string[];
  /** Move every product one step every this many milliseconds, wrapping round (default: on demand only). */
  readonly stepMs?: number;
  readonly clock?: () => number;
}

export interface Timeline {
  readonly asins: readonly string[];
  /** The position of `asin` in TIMELINE_STATES. */
  position(asin: string): number;
  state(asin: string): TimelineState;
  /** One step forward (wrapping round after the last); returns the new position. */
  advance(asin: string): number;
  set(asin: string, position: number): void;
  /** The page for a request, or undefined when it is not a timeline product's page. */
  pageFor(host: string, path: string): string | undefined;
}

const HOST = 'amazon.com';
const PRODUCT_PATH = /^\/(?:dp|gp\/product)\/([A-Z0-9]{10})$/;

export class UnknownTimelineProductError extends Error {}

export function createTimeline(options: TimelineOptions = {}): Timeline {
  const asins = [...(options.asins ?? [TIMELINE_ASIN])];
  const clock = options.clock ?? Date.now;
  const startedAt = clock();
  const manual = new Map(asins.map((asin) => [asin, 0]));

  const known = (asin: string): number => {
    const steps = manual.get(asin);
    if (steps === undefined) throw new UnknownTimelineProductError(`${asin} is not a timeline product (${asins.join(', ')})`);
    return steps;
  };
  const position = (asin: string): number => {
    const timed = options.stepMs ? Math.floor((clock() - startedAt) / options.stepMs) : 0;
    const count = TIMELINE_STATES.length;
    return (((known(asin) + timed) % count) + count) % count;
  };

  return {
    asins,
    position,
    state: (asin) => TIMELINE_STATES[position(asin)]!,
    advance(asin) {
      manual.set(asin, known(asin) + 1);
      return position(asin);
    },
    set(asin, to) {
      if (!Number.isInteger(to) || to < 0 || to >= TIMELINE_STATES.length) throw new RangeError(`position must be 0 to ${TIMELINE_STATES.length - 1}`);
      manual.set(asin, known(asin) + to - position(asin));
    },
    pageFor(host, path) {
      if (normalizeHost(host) !== HOST) return undefined;
      const asin = PRODUCT_PATH.exec(normalizePath(path))?.[1];
      if (!asin || !manual.has(asin)) return undefined;
      return timelinePage(asin, TIMELINE_STATES[position(asin)]!);
    },
  };
}
