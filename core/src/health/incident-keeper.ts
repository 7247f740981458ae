import { metrics as otel, type Meter } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { FieldSnapshot } from './field-snapshot.js';
import { changed, DEFAULT_INCIDENT_RULES, judge, type IncidentRules, type IncidentState } from './incident-rules.js';
import { applied, healthyRecord, incidentId, type IncidentRecord, type IncidentStore, type IncidentTransition } from './incident-store.js';

/*
 * Keeps the incident state of every (marketplace, kind) (docs/data-health.md). It judges each fresh
 * field window (field-health.ts hands every batch's snapshot here), records a change in the shared
 * store (one replica wins each change), logs it and counts it. Between changes it re-reads the
 * shared state every `refreshMs`, so a replica that parses no page of a kind still answers its
 * incident (the status, the X-Data-Incident header, skipOnIncident) within that time.
 */

export interface IncidentKeeper {
  /** Judges a fresh window; resolves once any change is recorded. Never throws. */
  observe(snapshot: FieldSnapshot): Promise<void>;
  /** The state this replica knows (healthy when never judged). */
  record(marketplace: string, kind: string): IncidentRecord;
  /** Every (marketplace, kind) judged so far (by this replica, or changed by any). */
  records(): IncidentRecord[];
  /** Whether the window's parses may teach the baseline: only while healthy (a drift is never learned). */
  learning(marketplace: string, kind: string): boolean;
  /** The shared log's changes after `seq`, and its latest position (lower than `seq` after a reset of the log). */
  transitionsAfter(seq: number): Promise<{ transitions: IncidentTransition[]; lastSeq: number }>;
  /** Re-reads the shared state (a timer does it every refreshMs). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export interface IncidentKeeperOptions {
  readonly store: IncidentStore;
  readonly logger?: Pick<Logger, 'warn' | 'info'>;
  readonly rules?: IncidentRules;
  readonly now?: () => number;
  /** How often the shared state is re-read (default 5 s; 0 = only by refresh()). */
  readonly refreshMs?: number;
  /** Hears every change this replica recorded. */
  readonly onTransition?: (transition: IncidentTransition) => void;
  readonly meter?: Meter;
}

const LEVEL: Record<IncidentState, number> = { healthy: 0, degraded: 1, major: 2 };

const verb = (t: IncidentTransition) => (t.from === 'healthy' ? 'opened' : t.to === 'healthy' ? 'closed' : 'changed');

export function createIncidentKeeper(options: IncidentKeeperOptions): IncidentKeeper {
  const now = options.now ?? Date.now;
  const known = new Map<string, IncidentRecord>();
  // Windows of one (marketplace, kind) are judged one after another in this process.
  const queues = new Map<string, Promise<void>>();
  const meter = options.meter ?? otel.getMeter('retail-core');
  const transitions = meter.createCounter('retail_data_incident_transitions', { description: 'Incident changes this replica recorded, by marketplace, kind and new state' });
  meter
    .createObservableGauge('retail_data_incident_state', { description: 'Data incident state per marketplace and kind: 0 healthy, 1 degraded, 2 major' })
    .addCallback((result) => {
      for (const r of known.values()) result.observe(LEVEL[r.state], { marketplace: r.marketplace, kind: r.kind });
    });

  const recordOf = (marketplace: string, kind: string) => known.get(`${marketplace}:${kind}`) ?? healthyRecord(marketplace, kind);

  async function refresh(): Promise<void> {
    for (const r of await options.store.all()) {
      const mine = known.get(incidentId(r));
      if (!mine || mine.version < r.version) known.set(incidentId(r), r);
    }
  }

  function announce(t: IncidentTransition): void {
    transitions.add(1, { marketplace: t.marketplace, kind: t.kind, to: t.to });
    const line = { marketplace: t.marketplace, kind: t.kind, from: t.from, to: t.to, fields: t.fields, seq: t.seq };
    if (t.to === 'healthy') options.logger?.info(line, `data incident ${verb(t)}`);
    else options.logger?.warn(line, `data incident ${verb(t)}`);
    options.onTransition?.(t);
  }

  async function judgeWindow(snapshot: FieldSnapshot, retry: boolean): Promise<void> {
    const current = recordOf(snapshot.marketplace, snapshot.kind);
    // A (marketplace, kind) is known (healthy) from its first judged window, not only from a change.
    if (!known.has(incidentId(current))) known.set(incidentId(current), current);
    const verdict = judge(snapshot, current.fields, options.rules ?? DEFAULT_INCIDENT_RULES);
    if (!changed(current, verdict)) return;
    const at = now();
    const transition = await options.store.transition(current, verdict, at);
    if (transition) {
      known.set(incidentId(current), applied(current, verdict, at, transition.seq).record);
      announce(transition);
    } else if (retry) {
      // Another replica changed it first: judge again against what it recorded.
      await refresh();
      await judgeWindow(snapshot, false);
    }
  }

  const timer = options.refreshMs === 0 ? undefined : setInterval(() => void refresh().catch(() => undefined), options.refreshMs ?? 5_000).unref();

  return {
    observe(snapshot) {
      const id = incidentId(snapshot);
      const run = (queues.get(id) ?? Promise.resolve())
        .then(() => judgeWindow(snapshot, true))
        .catch((error: unknown) => options.logger?.warn({ err: error, marketplace: snapshot.marketplace, kind: snapshot.kind }, 'data incident state unavailable; window not judged'));
      queues.set(id, run);
      return run;
    },
    record: recordOf,
    records: () => [...known.values()],
    learning: (marketplace, kind) => recordOf(marketplace, kind).state === 'healthy',
    refresh,
    async transitionsAfter(seq) {
      const all = await options.store.transitionsAfter(0);
      const lastSeq = all.at(-1)?.seq ?? 0;
      return { transitions: all.filter((t) => t.seq > seq), lastSeq };
    },
    async close() {
      if (timer) clearInterval(timer);
      await Promise.all(queues.values());
      await options.store.close();
    },
  };
}
