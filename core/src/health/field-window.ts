/*
 * The sliding window of field presence per (marketplace, kind): the last `size` parses, each kept as
 * a presence string ('1' = the declared field at that index was produced, '0' = missing), with the
 * per-field counts over the window and a learned baseline beside it. The Redis store
 * (field-window-redis.ts) is what every core replica shares; this memory store, the same algorithm,
 * serves the one-process `npm start` and tests.
 *
 * The window counts parses, not time: an incident must open within a number of drifted parses
 * (issue 23: within 20, never from fewer than 5), whatever the traffic of a marketplace.
 */

export interface WindowKey {
  readonly marketplace: string;
  readonly kind: string;
  /** How many fields the kind declares (the length of every presence string). */
  readonly fields: number;
  /** Changes whenever the kind's declared fields change, so old presence strings are never misread. */
  readonly version: string;
}

export interface WindowCounts {
  /** Parses in the window (at most its size). */
  readonly parses: number;
  /** Per declared field, the parses in the window that produced it. */
  readonly present: readonly number[];
  /** The learned baseline: parses it has learned from (all time) and, per field, its share (0–1). */
  readonly learned: number;
  readonly baseline: readonly number[];
}

export interface FieldWindowStore {
  /**
   * Adds parses to the window (oldest first) and, when `learn`, to the baseline; answers the
   * window's counts afterwards, as every replica sees them.
   */
  push(key: WindowKey, presence: readonly string[], learn: boolean): Promise<WindowCounts>;
  read(key: WindowKey): Promise<WindowCounts>;
  close(): Promise<void>;
}

export interface WindowSettings {
  /** Parses kept in the window (default 20: an incident opens within 20 drifted parses). */
  readonly size: number;
  /** Weight of one parse in the baseline, an exponentially weighted mean (default 1/500). */
  readonly learnRate: number;
}

export const DEFAULT_WINDOW: WindowSettings = { size: 20, learnRate: 1 / 500 };

interface Slot {
  readonly ring: string[];
  readonly present: number[];
  learned: number;
  readonly baseline: number[];
}

export function createMemoryFieldWindow(settings: WindowSettings = DEFAULT_WINDOW): FieldWindowStore {
  const slots = new Map<string, Slot>();
  const slot = (key: WindowKey): Slot => {
    const id = `${key.marketplace}:${key.kind}:${key.version}`;
    let found = slots.get(id);
    if (!found) {
      found = { ring: [], present: Array<number>(key.fields).fill(0), learned: 0, baseline: Array<number>(key.fields).fill(0) };
      slots.set(id, found);
    }
    return found;
  };
  const counts = (s: Slot): WindowCounts => ({ parses: s.ring.length, present: [...s.present], learned: s.learned, baseline: [...s.baseline] });
  return {
    async push(key, presence, learn) {
      const s = slot(key);
      for (const parse of presence) {
        s.ring.push(parse);
        addPresence(s.present, parse, 1);
        if (s.ring.length > settings.size) addPresence(s.present, s.ring.shift()!, -1);
        if (learn) {
          s.learned += 1;
          // A fresh baseline starts at the first parse's values instead of decaying up from zero.
          const rate = Math.max(settings.learnRate, 1 / s.learned);
          for (let i = 0; i < s.baseline.length; i++) s.baseline[i] = s.baseline[i]! + rate * ((parse[i] === '1' ? 1 : 0) - s.baseline[i]!);
        }
      }
      return counts(s);
    },
    async read(key) {
      return counts(slot(key));
    },
    async close() {
      slots.clear();
    },
  };
}

function addPresence(present: number[], parse: string, delta: number): void {
  for (let i = 0; i < present.length; i++) if (parse[i] === '1') present[i] = present[i]! + delta;
}
