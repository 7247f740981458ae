import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadCorpusEntries, loadCorpusRoutes, matchRoute, type CorpusEntry, type ReplayRoute } from './corpus-index.js';
import { notFoundPage } from './not-found-page.js';
import { applyDrift, type LayoutDrift } from './layout-drift.js';
import { answerTimelineAdmin, TIMELINE_ADMIN_PREFIX } from './timeline-admin.js';
import type { Timeline } from './timeline.js';

/** What the replay server knows about one incoming request. */
export interface ReplayRequest {
  /** Marketplace host the request is for (`X-Forwarded-Host`, else `Host`). */
  readonly host: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  /** The corpus entry that matched, if any. */
  readonly entry?: CorpusEntry;
}

/** A response that replaces the matched page (status, body and headers). */
export interface ReplayOverride {
  readonly status: number;
  readonly body: string | Buffer;
  readonly headers?: Record<string, string>;
}

/**
 * Seam for fault injection: called for every request after matching; returning an override answers
 * with it instead of the page. (Delays, resets and truncation come with the resilience work.)
 */
export type ReplayFaults = (request: ReplayRequest) => ReplayOverride | undefined;

export interface ReplayServerOptions {
  /** Directories laid out as ../shared/corpus/README.md describes (index.json + pages/). */
  readonly corpusDirs: readonly string[];
  readonly faults?: ReplayFaults;
  /**
   * Holds a request (after it is counted) until the returned promise settles, then answers it as
   * usual: a slow marketplace page, for tests that prove answers stream before a slow one.
   */
  readonly hold?: (request: ReplayRequest) => Promise<void> | undefined;
  readonly port?: number;
  readonly host?: string;
  /**
   * Products whose page changes over time (timeline.ts), answered before the corpus, with the admin
   * endpoint `/__replay/timeline/<asin>` to move them (timeline-admin.ts).
   */
  readonly timeline?: Timeline;
  /**
   * Layout drift (layout-drift.ts), read on every request: while `current` names a drift, every HTML
   * page the server answers with status 200 is transformed by it, as a marketplace redesign would.
   * Tests switch it on and off by setting `current`.
   */
  readonly drift?: { current: LayoutDrift | undefined };
}

/** One recording the server answers with: its index entry and the folder it was loaded from. */
export interface Recording {
  readonly entry: CorpusEntry;
  /** Absolute path of the corpus-layout folder (its goldens are under `golden/`). */
  readonly dir: string;
}

export interface ReplayServer {
  /** `http://127.0.0.1:<port>`: the value for MARKETPLACE_ORIGIN. */
  readonly origin: string;
  readonly port: number;
  /** Every request served, in order (for tests that count upstream fetches). */
  readonly requests: readonly ReplayRequest[];
  /** Number of routes (URLs incl. aliases) the server answers. */
  readonly routeCount: number;
  /** Every recording it serves, in load order: what the demo catalogue is derived from. */
  readonly recordings: readonly Recording[];
  /** The time-varying products, when the server was given them. */
  readonly timeline?: Timeline;
  close(): Promise<void>;
}

/** Starts the marketplace replay server on a free port (or `port`). */
export async function createReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  // Earlier directories win on identical URLs: routes are matched in load order.
  const routes: ReplayRoute[] = options.corpusDirs.flatMap((dir) => loadCorpusRoutes(dir));
  const requests: ReplayRequest[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`replay server error: ${String(error)}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://replay.invalid');
    const forwarded = req.headers['x-forwarded-host'];
    const host = (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? req.headers.host ?? '';
    // The admin endpoint is the test's, not the marketplace's: it is not counted among the requests.
    if (options.timeline && url.pathname.startsWith(TIMELINE_ADMIN_PREFIX)) {
      answerTimelineAdmin(options.timeline, req.method ?? 'GET', url, res);
      return;
    }
    const route = matchRoute(routes, host, url.pathname, url.searchParams);
    const request: ReplayRequest = {
      host,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      ...(route ? { entry: route.entry } : {}),
    };
    requests.push(request);
    const held = options.hold?.(request);
    if (held) await held;

    const override = options.faults?.(request);
    if (override) {
      send(res, override.status, override.body, override.headers);
      return;
    }
    const drift = options.drift?.current;
    const drifted = (page: string) => (drift ? applyDrift(drift, page) : page);
    const timelinePage = options.timeline?.pageFor(host, url.pathname);
    if (timelinePage !== undefined) {
      send(res, 200, drifted(timelinePage));
      return;
    }
    if (!route) {
      send(res, 404, notFoundPage(host || 'amazon.com'));
      return;
    }
    const body = await readFile(route.file);
    send(res, route.entry.status, drift && route.entry.status === 200 && route.file.endsWith('.html') ? drifted(body.toString('utf8')) : body);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  const listenHost = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';

  return {
    origin: `http://${listenHost}:${port}`,
    port,
    requests,
    routeCount: routes.length,
    recordings: options.corpusDirs.flatMap((dir) => loadCorpusEntries(dir).map((entry) => ({ entry, dir: resolve(dir) }))),
    ...(options.timeline && { timeline: options.timeline }),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

function send(res: ServerResponse, status: number, body: string | Buffer, headers?: Record<string, string>): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}
