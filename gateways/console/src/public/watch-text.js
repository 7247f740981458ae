// How the Watches page words what the API sends: condition and event types, statuses, intervals,
// prices and the change an event records. Unknown names (a newer service) are shown as they come.

export const CONDITIONS = {
  PRICE_AT_OR_BELOW: { text: 'The price is at or below', value: { label: 'Price', step: '0.01', max: undefined } },
  PRICE_DROP_PERCENT: { text: 'The price drops by at least', value: { label: 'Percent', step: '1', max: '100' } },
  BACK_IN_STOCK: { text: 'It is back in stock' },
  OUT_OF_STOCK: { text: 'It goes out of stock' },
  BUYBOX_SELLER_CHANGED: { text: 'The buy-box seller changes' },
  ANY_CHANGE: { text: 'Anything tracked changes' },
};

const EVENTS = {
  PRICE_AT_OR_BELOW: 'Price at or below the threshold',
  PRICE_DROP_PERCENT: 'Price drop',
  BACK_IN_STOCK: 'Back in stock',
  OUT_OF_STOCK: 'Out of stock',
  BUYBOX_SELLER_CHANGED: 'Buy-box seller changed',
  ANY_CHANGE: 'Changed',
  WATCH_PAUSED: 'Watch paused',
  WATCH_RESUMED: 'Watch resumed',
  PRODUCT_NOT_FOUND: 'Product not found',
  WEBHOOK_TEST: 'Test event',
};

const PAUSED_REASONS = {
  USER: 'paused by you',
  INSUFFICIENT_UNITS: 'paused: no units left (resumes when units are added)',
  NOT_FOUND: 'paused: the product is gone',
};

const DELIVERY_STATUSES = { PENDING: 'Pending', DELIVERED: 'Delivered', FAILED: 'Failed, will retry', DEAD: 'Gave up' };

/** The refresh intervals offered, within the service's bounds. */
const INTERVALS = [900, 1800, 3600, 7200, 21600, 43200, 86400, 259200, 604800];

export const eventText = (type) => EVENTS[type] ?? type;
export const deliveryStatusText = (status) => DELIVERY_STATUSES[status] ?? status;

export function intervalText(seconds) {
  if (seconds % 86400 === 0) return seconds === 86400 ? '1 day' : `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  return `${Math.round(seconds / 60)} min`;
}

export function intervalChoices({ minimum = 900, maximum = 604800 }) {
  return INTERVALS.filter((seconds) => seconds >= minimum && seconds <= maximum);
}

export function statusText(watch) {
  if (watch.status === 'ACTIVE') return 'Active';
  return PAUSED_REASONS[watch.pausedReason] ? `Paused (${PAUSED_REASONS[watch.pausedReason]})` : 'Paused';
}

export function priceText(price) {
  if (!price || typeof price.value !== 'number') return '–';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: price.currency }).format(price.value);
  } catch {
    return `${price.value} ${price.currency ?? ''}`.trim();
  }
}

export function conditionText(condition) {
  const known = CONDITIONS[condition.type];
  if (!known) return condition.type;
  if (condition.type === 'PRICE_DROP_PERCENT') return `${known.text} ${condition.value} %`;
  if (known.value) return `${known.text} ${condition.value}`;
  return known.text;
}

/** What an event changed, in a few words: price, stock, seller, status. */
export function changeText(before, after) {
  const parts = [];
  const from = before ?? {};
  const to = after ?? {};
  if (to.price !== undefined || from.price !== undefined) {
    if (priceText(from.price) !== priceText(to.price)) parts.push(`price ${priceText(from.price)} → ${priceText(to.price)}`);
  }
  const stock = (value) => (value === true ? 'in stock' : value === false ? 'out of stock' : 'unknown');
  if (typeof to.isInStock === 'boolean' && from.isInStock !== to.isInStock) parts.push(`${stock(from.isInStock)} → ${stock(to.isInStock)}`);
  if (to.buyboxSellerId !== undefined && from.buyboxSellerId !== to.buyboxSellerId) {
    parts.push(`seller ${from.buyboxSellerId ?? '–'} → ${to.buyboxSellerId ?? '–'}`);
  }
  if (to.status) parts.push(to.status === 'PAUSED' ? PAUSED_REASONS[to.pausedReason] ?? 'paused' : 'active');
  return parts.join('; ') || '–';
}
