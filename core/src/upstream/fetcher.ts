import { ErrorReason } from '@retail/contract';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Pool, type Dispatcher } from 'undici';
import type { ProxyRotation } from '../resilience/proxies.js';
import { CoreError, isCoreError } from '../errors.js';
import type { FetchedPage, PageFetcher, PageRequest } from '../pages/types.js';
import { classifyUpstream, outcomeError } from './classify.js';
import { transportFailureOf, UpstreamFailure } from '../outcomes/causes.js';
import { hostForKind, isMarketplaceOrigin, pathWithQuery } from '../pages/hosts.js';
import { SpanKind, inSpan } from '../telemetry/tracing.js';
import { withRefusedPage } from '../archive/refused-page.js';

export interface PageFetcherOptions {
  /** MARKETPLACE_ORIGIN: send every request to this origin (the replay server) with X-Forwarded-Host. */
  readonly origin?: string;
  /** Per-fetch time limit; the call's own deadline (signal) applies as well. */
  readonly timeoutMs: number;
  readonly userAgent?: string;
  /** Cookie header sent with every marketplace request. */
  readonly cookies?: string;
  /** REVIEWS_SESSION_COOKIE: a signed-in session sent only with review-page requests. */
  readonly reviewsSessionCookie?: string;
  /** Largest body read, in bytes; larger answers are an upstream error. */
  readonly maxBodyBytes?: number;
  /** UPSTREAM_PROXIES: fetch through these proxies in turn, with per-proxy health (resilience/proxies.ts). */
  readonly proxies?: ProxyRotation;
  /** Connections per origin pool. */
  readonly connections?: number;
}

export interface ClosablePageFetcher extends PageFetcher {
  close(): Promise<void>;
}

const MAX_REDIRECTS = 3;

/** One HTTP exchange: a redirect to follow, or a body. */
type Answer =
  | { status: number; redirect: string; html?: undefined; retryAfter?: undefined }
  | { status: number; redirect?: undefined; html: string; retryAfter: number | undefined; contentType: string };

/** Retry-After in whole seconds (delta or HTTP date), when the marketplace sends one. */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const seconds = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Math.ceil((Date.parse(raw) - now) / 1000);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.max(1, Math.min(seconds, 3600)) : undefined;
}
const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * The upstream client: one undici Pool (keep-alive) per origin, the marketplace allow-list, manual
 * redirects within it, the call's deadline combined with a per-fetch timeout, and one classifier
 * for every outcome. `fetchPage` is the single seam later layers (cache, retries, breaker) wrap.
 */
export function createPageFetcher(options: PageFetcherOptions): ClosablePageFetcher {
  const pools = new Map<string, Pool>();
  const override = options.origin ? new URL(options.origin).origin : undefined;
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;

  function poolFor(origin: string): Pool {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: options.connections ?? 16, keepAliveTimeout: 10_000, pipelining: 1 });
      pools.set(origin, pool);
    }
    return pool;
  }

  async function fetchOnce(marketplaceUrl: URL, request: PageRequest, signal: AbortSignal): Promise<Answer> {
    const origin = override ?? marketplaceUrl.origin;
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
      accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
      // Pages are 1–2 MB of HTML; compressed they travel 5–10 times smaller.
      'accept-encoding': 'gzip, deflate, br',
      'accept-language': `${request.marketplace.locale},${request.marketplace.language};q=0.9`,
    };
    if (override) headers['x-forwarded-host'] = marketplaceUrl.host;
    const cookies = [options.cookies, request.kind === 'reviews' ? options.reviewsSessionCookie : undefined].filter(Boolean);
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    const exchange = { method: 'GET' as const, path: marketplaceUrl.pathname + marketplaceUrl.search, headers, signal };
    const proxy = options.proxies?.pick();
    let response: Dispatcher.ResponseData;
    try {
      response = proxy ? await proxy.dispatcher.request({ origin, ...exchange }) : await poolFor(origin).request(exchange);
    } catch (error) {
      // A proxy that cannot carry the request rests after a few failures (the retry picks another).
      if (proxy && !signal.aborted) options.proxies!.report(proxy.url, false);
      throw error;
    }
    if (proxy) options.proxies!.report(proxy.url, true);
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && location) {
      await response.body.dump();
      return { redirect: Array.isArray(location) ? location[0]! : location, status: response.statusCode };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > maxBody) {
        response.body.destroy();
        throw new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: new Error(`body over ${maxBody} bytes`) });
      }
      chunks.push(chunk as Buffer);
    }
    const contentType = String(response.headers['content-type'] ?? '');
    const body = decompress(Buffer.concat(chunks), String(response.headers['content-encoding'] ?? ''), maxBody);
    return { status: response.statusCode, html: decode(body, contentType), retryAfter: retryAfterSeconds(response.headers['retry-after']), contentType };
  }

  async function fetchPage(request: PageRequest): Promise<FetchedPage> {
    const m = request.marketplace;
    // A path beginning `//host:port` would replace the origin; the built URL is checked like a redirect.
    let url = new URL(pathWithQuery(request.path, request.query), `https://${hostForKind(m, request.kind)}`);
    if (!isMarketplaceOrigin(m, url)) {
      throw new CoreError(ErrorReason.INTERNAL, undefined, { cause: new Error(`refused to fetch ${url.origin}: not a ${m.code} origin`) });
    }
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout]);
    try {
      for (let hop = 0; ; hop++) {
        const answer = await fetchOnce(url, request, signal);
        if (answer.redirect !== undefined) {
          // An unparseable Location is refused like a foreign one (not mistaken for a connection failure and retried).
          const next = URL.canParse(answer.redirect, url.href) ? new URL(answer.redirect, url) : undefined;
          // Redirects stay on the marketplace's own origins (scheme, host and port); anything else is never fetched.
          if (!next || !isMarketplaceOrigin(m, next)) {
            throw new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: new Error(`redirect to foreign URL ${next?.origin ?? '(unparseable)'} refused`) });
          }
          const outcome = classifyUpstream(answer.status, '', next.toString());
          const error = outcomeError(outcome, request.kind, next.toString());
          if (error && outcome.kind === 'blocked') throw error;
          if (hop + 1 > MAX_REDIRECTS) {
            throw new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: new Error(`more than ${MAX_REDIRECTS} redirects`) });
          }
          url = next;
          continue;
        }
        const page: FetchedPage = { status: answer.status, html: answer.html, url: url.toString(), retrievedAt: new Date(), fromCache: false, contentType: answer.contentType };
        const outcome = classifyUpstream(answer.status, answer.html, url.toString());
        const error = outcomeError(outcome, request.kind, url.toString(), answer.retryAfter);
        // A block page goes with its error to the page archive (archive/refused-page.ts), never to a client.
        if (error) throw outcome.kind === 'blocked' ? withRefusedPage(error, page) : error;
        return page;
      }
    } catch (error) {
      if (isCoreError(error)) throw error;
      // The class goes to the client (outcomes/causes.ts); the error itself, with host and address, only to the logs.
      const failure = timeout.aborted || request.signal.aborted ? 'timeout' : transportFailureOf(error);
      throw new UpstreamFailure(failure, error, { viaProxy: options.proxies !== undefined });
    }
  }

  return {
    // One CLIENT span per page, named by the marketplace host (never the replay origin).
    fetchPage: (request) =>
      inSpan(
        `upstream GET ${hostForKind(request.marketplace, request.kind)}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'http.request.method': 'GET', 'server.address': hostForKind(request.marketplace, request.kind), 'retail.page_kind': request.kind },
        },
        async (span) => {
          const page = await fetchPage(request);
          span.setAttribute('http.response.status_code', page.status);
          return page;
        },
      ),
    async close() {
      await Promise.all([...pools.values()].map((p) => p.close()));
      pools.clear();
    },
  };
}

/** The body without its content encoding; an undecodable or oversized body is an upstream error. */
function decompress(body: Buffer, encoding: string, maxBytes: number): Buffer {
  const kind = encoding.trim().toLowerCase();
  if (kind === '' || kind === 'identity') return body;
  const options = { maxOutputLength: maxBytes };
  try {
    if (kind === 'gzip' || kind === 'x-gzip') return gunzipSync(body, options);
    if (kind === 'br') return brotliDecompressSync(body, options);
    if (kind === 'deflate') return inflateSync(body, options);
  } catch (error) {
    throw new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: error });
  }
  throw new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: new Error(`unknown content-encoding ${kind}`) });
}

/** Body text in the charset the answer declares (UTF-8 when none or unknown). */
function decode(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
