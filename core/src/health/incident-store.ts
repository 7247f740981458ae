import type { IncidentState, IncidentVerdict } from './incident-rules.js';

/*
 * The incident state of every (marketplace, kind), shared by the core replicas, and the log of its
 * transitions. A transition is a compare-and-set on the record's version, so when several replicas
 * judge the same shared window at once exactly one of them records (and announces) the change.
 * The log's sequence numbers let a reader (the watcher, which keeps the transitions in PostgreSQL)
 * take each transition once. The Redis store (incident-store-redis.ts) is the shared one; this
 * memory store serves the one-process `npm start` and tests.
 */

export interface IncidentRecord extends IncidentVerdict {
  readonly marketplace: string;
  readonly kind: string;
  /** When the (marketplace, kind) entered this state (epoch ms). */
  readonly since: number;
  /** Bumped by every transition: what a compare-and-set compares. 0 = never judged (healthy). */
  readonly version: number;
}

export interface IncidentTransition {
  /** Position in the log of every transition, increasing. */
  readonly seq: number;
  readonly marketplace: string;
  readonly kind: string;
  readonly from: IncidentState;
  readonly to: IncidentState;
  /** The affected fields after the transition (empty when it closes the incident). */
  readonly fields: readonly string[];
  /** Epoch ms. */
  readonly at: number;
}

export interface IncidentStore {
  /** Every (marketplace, kind) ever judged, healthy ones included. */
  all(): Promise<IncidentRecord[]>;
  /**
   * Records `next` when the record is still at `version`; the logged transition, or undefined when
   * another replica changed it first.
   */
  transition(current: IncidentRecord, next: IncidentVerdict, at: number): Promise<IncidentTransition | undefined>;
  /** Logged transitions after `seq`, oldest first (the log keeps the last `logLimit`). */
  transitionsAfter(seq: number): Promise<IncidentTransition[]>;
  close(): Promise<void>;
}

/** A (marketplace, kind) nobody has judged yet. */
export const healthyRecord = (marketplace: string, kind: string): IncidentRecord => ({ marketplace, kind, state: 'healthy', fields: [], since: 0, version: 0 });

export const incidentId = (r: { readonly marketplace: string; readonly kind: string }) => `${r.marketplace}:${r.kind}`;

/** The record and its log entry after a transition (one shape for both stores). */
export function applied(current: IncidentRecord, next: IncidentVerdict, at: number, seq: number): { record: IncidentRecord; transition: IncidentTransition } {
  const since = next.state === current.state ? current.since : at;
  return {
    record: { marketplace: current.marketplace, kind: current.kind, state: next.state, fields: [...next.fields], since, version: current.version + 1 },
    transition: { seq, marketplace: current.marketplace, kind: current.kind, from: current.state, to: next.state, fields: [...next.fields], at },
  };
}

export function createMemoryIncidentStore(logLimit = 1000): IncidentStore {
  const records = new Map<string, IncidentRecord>();
  const log: IncidentTransition[] = [];
  let seq = 0;
  return {
    async all() {
      return [...records.values()];
    },
    async transition(current, next, at) {
      const stored = records.get(incidentId(current));
      if ((stored?.version ?? 0) !== current.version) return undefined;
      const { record, transition } = applied(current, next, at, ++seq);
      records.set(incidentId(record), record);
      log.push(transition);
      if (log.length > logLimit) log.shift();
      return transition;
    },
    async transitionsAfter(after) {
      return log.filter((t) => t.seq > after);
    },
    async close() {},
  };
}
