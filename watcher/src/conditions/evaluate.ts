/**
 * Which of a watch's conditions are met between two consecutive snapshots of its product. Pure: the
 * refresh stores the events this returns (idempotently, keyed by watch, snapshot and type).
 *
 * Conditions fire on a transition, as price trackers' alerts do, so a product that stays below a
 * threshold for a month sends one alert, not one per refresh:
 * - PRICE_AT_OR_BELOW v: the price is ≤ v now and was not before (above v, unknown, another currency,
 *   or there was no earlier snapshot: a watch created on a product already below v alerts at once).
 * - PRICE_DROP_PERCENT n: the price fell by at least n % since the previous snapshot (same currency).
 * - BACK_IN_STOCK / OUT_OF_STOCK: availability flipped between two snapshots that both show it.
 * - BUYBOX_SELLER_CHANGED: both snapshots name a buy-box seller and they differ (a buy box that
 *   disappears is an availability change, not a seller change).
 * - ANY_CHANGE: any tracked field differs (prices in minor units, ratings to the tenth).
 *
 * No condition reads a field a snapshot marks unknown or suspect (docs/watches.md, Quality marks):
 * such a field is taken out of `after` before the rules run, and ANY_CHANGE skips it on either side.
 * `before` is what the product's history vouches for (store/snapshots.ts trustedAt), so a field that
 * went unknown and came back with its old value compares equal: neither step is a change.
 */
import { type Condition, type ConditionType, type Snapshot, type TrackedField, untrustedFields } from '../model.js';
import { changedFields, comparablePrices, minorUnits, pick } from './compare.js';

export interface EventDraft {
  readonly type: ConditionType;
  /** The condition met (two price thresholds can fire on one snapshot; the store keys events by it). */
  readonly condition: Condition;
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown>;
}

/** A drop of 9.999 % read from two rounded prices still meets a 10 % condition only when it is 10 %. */
const PERCENT_EPSILON = 1e-9;

type Rule = (condition: Condition, before: Snapshot | null, after: Snapshot, skip: ReadonlySet<TrackedField>) => boolean;

const RULES: Record<ConditionType, Rule> = {
  PRICE_AT_OR_BELOW(condition, before, after) {
    if (!after.price || condition.value === undefined) return false;
    const threshold = minorUnits(condition.value);
    if (minorUnits(after.price.value) > threshold) return false;
    const prices = comparablePrices(before?.price, after.price);
    return prices === null || prices.before > threshold;
  },
  PRICE_DROP_PERCENT(condition, before, after) {
    const prices = comparablePrices(before?.price, after.price);
    if (!prices || prices.before <= 0 || condition.value === undefined) return false;
    const dropPercent = ((prices.before - prices.after) / prices.before) * 100;
    return prices.after < prices.before && dropPercent + PERCENT_EPSILON >= condition.value;
  },
  BACK_IN_STOCK: (_, before, after) => before?.isInStock === false && after.isInStock === true,
  OUT_OF_STOCK: (_, before, after) => before?.isInStock === true && after.isInStock === false,
  BUYBOX_SELLER_CHANGED: (_, before, after) =>
    before?.buyboxSellerId !== undefined && after.buyboxSellerId !== undefined && before.buyboxSellerId !== after.buyboxSellerId,
  ANY_CHANGE: (_, before, after, skip) => before !== null && changedFields(before, after, skip).length > 0,
};

/** The fields an event of each type shows before and after. */
const EVENT_FIELDS: Record<ConditionType, ReadonlyArray<keyof Snapshot> | 'changed'> = {
  PRICE_AT_OR_BELOW: ['price'],
  PRICE_DROP_PERCENT: ['price'],
  BACK_IN_STOCK: ['isInStock', 'price'],
  OUT_OF_STOCK: ['isInStock'],
  BUYBOX_SELLER_CHANGED: ['buyboxSellerId', 'price'],
  ANY_CHANGE: 'changed',
};

/** One event per condition met; at most one per type and value (conditions are deduplicated on input). */
export function eventsBetween(conditions: readonly Condition[], before: Snapshot | null, read: Snapshot): EventDraft[] {
  const skip = new Set([...(before ? untrustedFields(before) : []), ...untrustedFields(read)]);
  const trusted: Record<string, unknown> = { ...read };
  for (const field of untrustedFields(read)) delete trusted[field];
  const after = trusted as unknown as Snapshot;
  const events: EventDraft[] = [];
  for (const condition of conditions) {
    if (!RULES[condition.type](condition, before, after, skip)) continue;
    const declared = EVENT_FIELDS[condition.type];
    const fields = declared === 'changed' ? changedFields(before!, after, skip) : declared;
    events.push({ type: condition.type, condition, before: before ? pick(before, fields) : null, after: pick(after, fields) });
  }
  return events;
}
