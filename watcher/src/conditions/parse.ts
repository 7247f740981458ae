/**
 * Conditions as a client sends them (the `conditions` of a watch's create or update body), checked
 * into the model's Condition list or into 400 envelope entries whose `path` names the offending item.
 */
import type { Condition, ConditionType } from '../model.js';

/** The condition types, with whether they take a `value` and its bounds. */
const TYPES: Record<ConditionType, { value?: { min: number; max: number; what: string } }> = {
  PRICE_AT_OR_BELOW: { value: { min: 0.01, max: 1_000_000_000, what: 'a price in major units' } },
  PRICE_DROP_PERCENT: { value: { min: 0.01, max: 100, what: 'a percentage' } },
  BACK_IN_STOCK: {},
  OUT_OF_STOCK: {},
  BUYBOX_SELLER_CHANGED: {},
  ANY_CHANGE: {},
};

export const CONDITION_TYPES = Object.keys(TYPES) as ConditionType[];

/** More would make a watch a rules engine; ten covers every combination of distinct types and thresholds users set. */
export const MAX_CONDITIONS = 10;

export interface ConditionError {
  readonly message: string;
  readonly path: Array<string | number>;
}

export type ParsedConditions = { ok: true; conditions: Condition[] } | { ok: false; errors: ConditionError[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseOne(item: unknown, index: number, errors: ConditionError[]): Condition | null {
  const at = (...rest: string[]) => ['conditions', index, ...rest];
  if (!isRecord(item)) {
    errors.push({ message: 'must be an object with a type', path: at() });
    return null;
  }
  for (const name of Object.keys(item)) {
    if (name !== 'type' && name !== 'value') errors.push({ message: `unknown field ${JSON.stringify(name)}`, path: at(name) });
  }
  const type = item.type;
  if (typeof type !== 'string' || !(type in TYPES)) {
    errors.push({ message: `must be one of ${CONDITION_TYPES.join(', ')}`, path: at('type') });
    return null;
  }
  const rule = TYPES[type as ConditionType].value;
  const value = item.value;
  if (!rule) {
    if (value !== undefined && value !== null) errors.push({ message: `${type} takes no value`, path: at('value') });
    return { type: type as ConditionType };
  }
  if (value === undefined || value === null) {
    errors.push({ message: `${type} needs a value (${rule.what})`, path: at('value') });
    return null;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < rule.min || value > rule.max) {
    errors.push({ message: `must be ${rule.what} from ${rule.min} to ${rule.max}`, path: at('value') });
    return null;
  }
  return { type: type as ConditionType, value };
}

/** Absent or null means no conditions (the watch records history and lifecycle events only). */
export function parseConditions(input: unknown): ParsedConditions {
  if (input === undefined || input === null) return { ok: true, conditions: [] };
  if (!Array.isArray(input)) return { ok: false, errors: [{ message: 'must be a list of conditions', path: ['conditions'] }] };
  if (input.length > MAX_CONDITIONS) {
    return { ok: false, errors: [{ message: `at most ${MAX_CONDITIONS} conditions`, path: ['conditions'] }] };
  }
  const errors: ConditionError[] = [];
  const conditions: Condition[] = [];
  const seen = new Set<string>();
  input.forEach((item, index) => {
    const condition = parseOne(item, index, errors);
    if (!condition) return;
    const identity = `${condition.type}:${condition.value ?? ''}`;
    if (seen.has(identity)) errors.push({ message: 'the same condition is given twice', path: ['conditions', index] });
    seen.add(identity);
    conditions.push(condition);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, conditions };
}
