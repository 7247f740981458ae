/**
 * Which values of a refreshed page are implausible enough to be read a second time before any event
 * fires from them. A wrong value is worse than a missing one: a parser that reads a neighbouring price
 * (an accessory's, a per-unit price, a used offer) alerts customers, sends signed webhooks and writes
 * a history nobody can repair, while a confirmation read costs one fetch.
 */
import { minorUnits } from '../conditions/compare.js';
import type { Snapshot, TrackedField } from '../model.js';

type Fields = Pick<Snapshot, TrackedField>;

/**
 * A price that moves by more than this fraction of its last trusted value in one interval is confirmed.
 * Why 30 %: an everyday repricing or a coupon moves a price by a few to 20 %, so those fire at once
 * without a second fetch; the reads that go wrong when a layout changes land on another price on the
 * page (an accessory, a unit price, a bundle, a used offer), typically a factor of 2 or more away.
 * Real drops beyond 30 % (a lightning deal) are still announced, one confirmation read later in the
 * same refresh: the bound decides only what costs a second fetch, never what fires.
 */
export const PRICE_PLAUSIBLE_CHANGE = 0.3;

function implausiblePrice(before: Fields['price'], after: Fields['price']): boolean {
  if (!before || !after) return false;
  if (before.currency !== after.currency) return true;
  const was = minorUnits(before.value);
  if (was <= 0) return minorUnits(after.value) !== was;
  return Math.abs(minorUnits(after.value) - was) / was > PRICE_PLAUSIBLE_CHANGE;
}

/**
 * The fields of `read` to confirm against `trusted` (the product's history before it): a price beyond
 * the bound, a changed currency, and any availability flip (the stock alerts fire from nothing else),
 * with the price that comes back with it: after a time unavailable there is no price to bound it by.
 */
export function fieldsToConfirm(read: Fields, trusted: Fields | null): TrackedField[] {
  if (!trusted) return [];
  const fields: TrackedField[] = [];
  if (implausiblePrice(trusted.price, read.price)) fields.push('price');
  if (trusted.isInStock !== undefined && read.isInStock !== undefined && trusted.isInStock !== read.isInStock) {
    fields.push('isInStock');
    if (read.price !== undefined && trusted.price === undefined) fields.push('price');
  }
  return fields;
}
