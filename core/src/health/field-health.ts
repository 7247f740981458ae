import { createHash } from 'node:crypto';
import type { Meter } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { DECLARED_KINDS, FIELD_HEALTH, type PageKindHealth } from './field-declarations.js';
import type { FieldWindowStore, WindowCounts, WindowKey } from './field-window.js';
import { createFieldHealthMetrics } from './field-metrics.js';
import type { FieldSnapshot } from './field-snapshot.js';
import { isParserId } from '../workers/parser-registry.js';

/*
 * Field health, measured on every parse (issue 23, docs/data-health.md). A parse's record is turned
 * into a presence string of its kind's declared fields at once (cheap: a few property reads); the
 * strings are sent to the shared window in batches, one script per (marketplace, kind) per flush, so
 * a parse never waits on Redis and a Redis outage loses counts, never a call.
 */

/** What a parse gave: its record, or nothing the operation could use (an unparseable page). */
export type ParseOutcome = { readonly record: unknown } | 'unparseable';

export interface FieldHealth {
  /** Accounts one parse by a registered parser (undeclared parsers are not accounted). Never throws. */
  record(marketplace: string, parser: string, outcome: ParseOutcome): void;
  /** Sends the parses recorded so far to the window (tests and shutdown; a timer does it otherwise). */
  flush(): Promise<void>;
  /** The window of a (marketplace, kind) as every replica sees it. */
  read(marketplace: string, kind: string): Promise<FieldSnapshot>;
  /** The latest snapshot this process has of every (marketplace, kind) it accounted or read. */
  latest(): FieldSnapshot[];
  close(): Promise<void>;
}

export interface FieldHealthOptions {
  readonly store: FieldWindowStore;
  /** How long parses wait to be sent in one batch (default 50 ms). */
  readonly flushMs?: number;
  /** Parses a baseline must have learned from before it replaces the declared one (default 200). */
  readonly minLearned?: number;
  /**
   * Whether parses of a (marketplace, kind) teach its learned baseline now (no: under incident, so a
   * drift is never learned). Asked only once the baseline is learned: before, every parse teaches it.
   */
  readonly learning?: (marketplace: string, kind: string) => boolean;
  /** Hears every fresh snapshot (after each batch): the incident keeper reads the window here. */
  readonly onSnapshot?: (snapshot: FieldSnapshot) => void;
  readonly logger?: Pick<Logger, 'warn'>;
  /** Where the metrics go (default: the global OpenTelemetry meter, field-metrics.ts). */
  readonly meter?: Meter;
}

const versionOf = (health: PageKindHealth) =>
  createHash('sha256').update(health.fields.map((f) => f.name).join(',')).digest('hex').slice(0, 8);
const VERSIONS = new Map([...DECLARED_KINDS.values()].map((h) => [h.kind, versionOf(h)]));

function presenceOf(health: PageKindHealth, outcome: ParseOutcome): string {
  if (outcome === 'unparseable') return '0'.repeat(health.fields.length);
  let presence = '';
  for (const field of health.fields) presence += field.present(outcome.record) ? '1' : '0';
  return presence;
}

export function createFieldHealth(options: FieldHealthOptions): FieldHealth {
  const flushMs = options.flushMs ?? 50;
  const minLearned = options.minLearned ?? 200;
  const pending = new Map<string, { marketplace: string; health: PageKindHealth; presence: string[] }>();
  const snapshots = new Map<string, FieldSnapshot>();
  const metrics = createFieldHealthMetrics(() => snapshots.values(), options.meter);
  let timer: NodeJS.Timeout | undefined;
  let lastWarnAt = 0;

  const keyOf = (marketplace: string, health: PageKindHealth): WindowKey => ({
    marketplace,
    kind: health.kind,
    fields: health.fields.length,
    version: VERSIONS.get(health.kind)!,
  });

  const snapshotOf = (marketplace: string, health: PageKindHealth, counts: WindowCounts): FieldSnapshot => {
    const learned = counts.learned >= minLearned;
    const snapshot: FieldSnapshot = {
      marketplace,
      kind: health.kind,
      parses: counts.parses,
      fields: health.fields.map((field, i) => ({
        name: field.name,
        level: field.level,
        present: counts.present[i] ?? 0,
        completeness: counts.parses > 0 ? (counts.present[i] ?? 0) / counts.parses : 1,
        baseline: learned ? counts.baseline[i] ?? field.baseline : field.baseline,
        baselineLearned: learned,
      })),
    };
    snapshots.set(`${marketplace}:${health.kind}`, snapshot);
    return snapshot;
  };

  async function flush(): Promise<void> {
    timer = undefined;
    const batches = [...pending.values()];
    pending.clear();
    await Promise.all(
      batches.map(async ({ marketplace, health, presence }) => {
        metrics.parsed(marketplace, health, presence);
        try {
          // Under incident nothing is learned, so a drift never becomes the new normal; but until the
          // baseline is learned at all it learns regardless: an incident opened only because a
          // declared default does not fit this marketplace must be able to close.
          const learned = snapshots.get(`${marketplace}:${health.kind}`)?.fields[0]?.baselineLearned ?? false;
          const learn = !learned || (options.learning?.(marketplace, health.kind) ?? true);
          const counts = await options.store.push(keyOf(marketplace, health), presence, learn);
          // Built first: `onSnapshot?.(…)` would skip its argument when nobody listens.
          const snapshot = snapshotOf(marketplace, health, counts);
          options.onSnapshot?.(snapshot);
        } catch (error) {
          // One line per 10 s at most: an outage of the window must not flood the logs.
          if (Date.now() - lastWarnAt > 10_000) {
            lastWarnAt = Date.now();
            options.logger?.warn({ err: error, marketplace, kind: health.kind, parses: presence.length }, 'field-health window unavailable; parses not accounted');
          }
        }
      }),
    );
  }

  return {
    record(marketplace, parser, outcome) {
      const health = isParserId(parser) ? FIELD_HEALTH[parser] : undefined;
      if (!health) return;
      const id = `${marketplace}:${health.kind}`;
      let batch = pending.get(id);
      if (!batch) pending.set(id, (batch = { marketplace, health, presence: [] }));
      batch.presence.push(presenceOf(health, outcome));
      // A batch timer, not a schedule: it only groups the parses of the next few milliseconds.
      timer ??= setTimeout(() => void flush(), flushMs).unref();
    },
    async flush() {
      if (timer) clearTimeout(timer);
      await flush();
    },
    async read(marketplace, kind) {
      const health = DECLARED_KINDS.get(kind);
      if (!health) throw new Error(`no declared page kind ${kind}`);
      return snapshotOf(marketplace, health, await options.store.read(keyOf(marketplace, health)));
    },
    latest: () => [...snapshots.values()],
    async close() {
      if (timer) clearTimeout(timer);
      await flush();
      await options.store.close();
    },
  };
}
