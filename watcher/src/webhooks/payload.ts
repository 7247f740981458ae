/**
 * The body of a webhook: the event as the events list shows it ({id, watchId, type, before, after,
 * at}), with `at` as an ISO 8601 string. The account id stays inside the service.
 */
import type { WatchEvent } from '../model.js';

export interface WebhookPayload {
  readonly id: string;
  readonly watchId: string;
  readonly type: WatchEvent['type'];
  readonly before: WatchEvent['before'];
  readonly after: WatchEvent['after'];
  readonly at: string;
}

export function webhookPayload(event: WatchEvent): WebhookPayload {
  return { id: event.id, watchId: event.watchId, type: event.type, before: event.before, after: event.after, at: event.at.toISOString() };
}
