/**
 * StreamWatchEvents: the account's events as they happen, after a cursor (or from the newest event
 * at subscription time when none is given), until the client cancels.
 *
 * It polls the store's event list rather than using LISTEN/NOTIFY: appends are few, a poll is one
 * index range scan on (account_id, id) that finds nothing most of the time, it works the same on
 * PostgreSQL and PGlite and across any number of watcher replicas (the appender may be another
 * process), and it cannot miss a wake-up. Event ids become visible in commit order (store/events.ts),
 * so "after the last id sent" never skips an event committed later with a smaller id.
 */
import { create } from '@bufbuild/protobuf';
import type { StreamWatchEventsRequest, StreamWatchEventsResponse } from '@retail/contract';
import { StreamWatchEventsResponseSchema } from '@retail/contract';
import { idCursor, InvalidCursorError } from '../store/cursor.js';
import type { CallContext, ServiceParts } from './deps.js';
import { invalidArgument } from './errors.js';
import { eventMessage } from './to-proto.js';
import { ownWatch } from './watch-read.js';

/** Events read per poll; a backlog is drained page by page without waiting between pages. */
const STREAM_PAGE = 100;

/** Resolves after `ms`, or at once when the call is cancelled. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export function streamWatchEventsHandler(parts: ServiceParts) {
  return async function* stream(request: StreamWatchEventsRequest, context: CallContext): AsyncGenerator<StreamWatchEventsResponse> {
    // StreamWatchEventsRequest declares no parameter rules (gRPC only), so its two fields are checked here.
    let cursor: string | null;
    try {
      cursor = idCursor(request.cursor === '' ? undefined : request.cursor);
    } catch (error) {
      if (error instanceof InvalidCursorError) throw invalidArgument('cursor must be an event id or a nextCursor', 'cursor');
      throw error;
    }
    const watchId = request.watchId;
    if (watchId !== undefined) await ownWatch(parts, context.accountId, watchId, 'watch_id');
    cursor ??= await parts.store.events.latestId(context.accountId, watchId);
    while (!context.signal.aborted) {
      const page = await parts.store.events.list(context.accountId, {
        limit: STREAM_PAGE,
        ...(watchId !== undefined && { watchId }),
        ...(cursor !== null && { cursor }),
      });
      for (const event of page.items) {
        if (context.signal.aborted) return;
        cursor = event.id;
        yield create(StreamWatchEventsResponseSchema, { event: eventMessage(event), cursor: event.id });
      }
      if (page.nextCursor === null) await pause(parts.streamPollMs, context.signal);
    }
  };
}
