/**
 * How long the queue waits before each retry of a failed delivery: exponential back-off over about a
 * day (23.7 hours in all), so a receiver down for a deploy, a night or a weekend-morning outage gets
 * its events without being hammered while it is down. After the last retry the delivery is
 * dead-lettered (and can be redelivered by hand). The queue layer reads this; nothing here schedules.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The delay before retry n (index n - 1), in milliseconds. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  8 * HOUR,
];

/** The first attempt plus one per delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/**
 * Spread each delay by up to this share either way, so the retries of many events that failed
 * together (one receiver's outage) do not arrive together.
 */
export const WEBHOOK_RETRY_JITTER = 0.1;
