/**
 * The replay server's admin endpoint for time-varying products, so a test in another process (or a
 * person with curl) moves a product to its next state at a chosen moment:
 *
 *   GET  /__replay/timeline/<asin>                 → { asin, position, state, states }
 *   POST /__replay/timeline/<asin>/advance         → one step forward
 *   POST /__replay/timeline/<asin>?position=<n>    → jump to a state
 *
 * Answers JSON; an unknown product is a 404, a bad position a 400.
 */
import type { ServerResponse } from 'node:http';
import { TIMELINE_STATES } from './timeline-page.js';
import { UnknownTimelineProductError, type Timeline } from './timeline.js';

export const TIMELINE_ADMIN_PREFIX = '/__replay/timeline/';

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export function answerTimelineAdmin(timeline: Timeline, method: string, url: URL, res: ServerResponse): void {
  const [asin = '', action] = url.pathname.slice(TIMELINE_ADMIN_PREFIX.length).split('/');
  try {
    if (method === 'POST' && action === 'advance') timeline.advance(asin);
    else if (method === 'POST' && action === undefined && url.searchParams.has('position')) timeline.set(asin, Number(url.searchParams.get('position')));
    else if (method !== 'GET' || action !== undefined) return json(res, 400, { error: 'use GET <asin>, POST <asin>/advance or POST <asin>?position=<n>' });
    json(res, 200, { asin, position: timeline.position(asin), state: timeline.state(asin), states: TIMELINE_STATES.length });
  } catch (error) {
    if (error instanceof UnknownTimelineProductError) return json(res, 404, { error: error.message });
    if (error instanceof RangeError) return json(res, 400, { error: error.message });
    throw error;
  }
}
