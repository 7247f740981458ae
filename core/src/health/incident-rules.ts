import type { FieldSnapshot, FieldState } from './field-snapshot.js';

/*
 * When a (marketplace, kind) is under incident, decided from its field window (issue 23,
 * docs/data-health.md). A pure function of the window and the fields already affected, so the rules
 * are tested without any store or clock.
 *
 * Hysteresis is per field: a field joins the incident when it drifts (the opening threshold) and
 * leaves it only when it has recovered (a higher threshold); in between it keeps what it was. The
 * state follows the affected fields: `major` while a required field is affected, `degraded` while
 * only usual ones are, `healthy` when none is.
 *
 * - A required field drifts when it is missing on most parses of the window (more than half).
 * - A usual field drifts when its completeness falls below half its baseline. A field whose
 *   baseline is under 0.3 is too rare on healthy pages to judge and never drifts.
 * - Either only once at least 5 parses of the window miss it: never from fewer than 5 pages, and
 *   never from one odd page. With a window of 20 parses an incident opens within 20 drifted parses
 *   (a required field at the 11th, a usual field with baseline 0.8 at the 13th).
 * - A field recovers when its completeness is back to 80 % of what is normal (the required
 *   threshold: 0.8; a usual field: 0.8 × its baseline).
 */

export type IncidentState = 'healthy' | 'degraded' | 'major';

export const INCIDENT_STATES: readonly IncidentState[] = ['healthy', 'degraded', 'major'];

/** How a (marketplace, kind) stands: its state and the fields that put it there. */
export interface IncidentVerdict {
  readonly state: IncidentState;
  /** The affected fields, in declaration order. */
  readonly fields: readonly string[];
}

export interface IncidentRules {
  /** Fewest parses missing a field before it can drift (default 5). */
  readonly minMissing: number;
  /** Share of its normal completeness below which a usual field drifts (default 0.5). */
  readonly driftRatio: number;
  /** Share of its normal completeness at which an affected field has recovered (default 0.8). */
  readonly recoveryRatio: number;
  /** Usual fields with a baseline below this are never judged (default 0.3). */
  readonly minBaseline: number;
}

export const DEFAULT_INCIDENT_RULES: IncidentRules = { minMissing: 5, driftRatio: 0.5, recoveryRatio: 0.8, minBaseline: 0.3 };

/** What completeness counts as normal: a required field is normal on every page. */
const normal = (field: FieldState) => (field.level === 'required' ? 1 : field.baseline);

function drifted(field: FieldState, parses: number, rules: IncidentRules): boolean {
  if (parses - field.present < rules.minMissing) return false;
  if (field.level === 'usual' && field.baseline < rules.minBaseline) return false;
  return field.completeness < rules.driftRatio * normal(field);
}

const recovered = (field: FieldState, rules: IncidentRules) => field.completeness >= rules.recoveryRatio * normal(field);

/** The verdict on a window, given the fields affected before it. */
export function judge(snapshot: FieldSnapshot, affectedBefore: readonly string[], rules: IncidentRules = DEFAULT_INCIDENT_RULES): IncidentVerdict {
  const before = new Set(affectedBefore);
  const affected = snapshot.fields.filter((field) => (before.has(field.name) ? !recovered(field, rules) : drifted(field, snapshot.parses, rules)));
  const state: IncidentState = affected.some((f) => f.level === 'required') ? 'major' : affected.length > 0 ? 'degraded' : 'healthy';
  return { state, fields: affected.map((f) => f.name) };
}

/** Whether two verdicts differ (a state or an affected field): an incident's opening, change or closing. */
export function changed(a: IncidentVerdict, b: IncidentVerdict): boolean {
  return a.state !== b.state || a.fields.length !== b.fields.length || a.fields.some((f, i) => f !== b.fields[i]);
}

/** Whether `state` is at least as severe as `level` (skipOnIncident). */
export const atLeast = (state: IncidentState, level: IncidentState): boolean => INCIDENT_STATES.indexOf(state) >= INCIDENT_STATES.indexOf(level);
