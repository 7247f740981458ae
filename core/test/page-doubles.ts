import { ErrorReason } from '@retail/contract';
import { CoreError } from '../src/errors.js';
import { UpstreamFailure } from '../src/outcomes/causes.js';
import { marketplaceByCode } from '../src/marketplaces/index.js';
import type { FetchedPage, PageFetcher, PageRequest } from '../src/pages/types.js';

/** Page requests, pages, upstream failures and a scripted fetcher: the doubles of the resilience and cache unit tests (no network). Kept out of src/ so no image ships them. */
export const US = marketplaceByCode('US');

export const request = (path = '/dp/B000000001', signal: AbortSignal = new AbortController().signal): PageRequest => ({
  marketplace: US,
  path,
  kind: 'product',
  signal,
});

export const page = (url = 'https://www.amazon.com/dp/B000000001'): FetchedPage => ({
  status: 200,
  html: '<html></html>',
  url,
  retrievedAt: new Date(0),
  fromCache: false,
});

/** Errors shaped exactly as core/src/upstream/fetcher.ts throws them. */
export const failures = {
  connection: () => new UpstreamFailure('connection-reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
  errorPage: () => new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: new Error('https://www.amazon.com/dp/X: HTTP 503') }),
  timeout: () => new CoreError(ErrorReason.UPSTREAM_TIMEOUT, undefined, { cause: new Error('aborted') }),
  blocked: () => new CoreError(ErrorReason.UPSTREAM_BLOCKED, 'blocked', { cause: new Error('captcha page') }),
  notFound: () => new CoreError(ErrorReason.NOT_FOUND, 'no such product', { cause: new Error('HTTP 404') }),
  foreignRedirect: () => new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { cause: new Error('redirect to foreign URL https://evil.example refused') }),
};

/** A fetcher that answers from a script (one entry per call; the last repeats) and counts calls. */
export function scriptedFetcher(script: readonly (() => Error | FetchedPage)[]): PageFetcher & { calls: number } {
  const fetcher = {
    calls: 0,
    async fetchPage(): Promise<FetchedPage> {
      const step = script[Math.min(fetcher.calls, script.length - 1)]!;
      fetcher.calls++;
      const result = step();
      if (result instanceof Error) throw result;
      return result;
    },
  };
  return fetcher;
}
