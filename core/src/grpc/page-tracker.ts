import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CacheStatus, type ResponseMeta } from '@retail/contract';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ResponseMetaSchema } from '@retail/contract';
import type { FetchedPage, PageFetcher } from '../pages/types.js';

/**
 * Wraps a call's PageFetcher to learn how the response was produced, so every response's `meta`
 * says whether it came from cache and when its oldest page was retrieved (docs/contract.md,
 * Billing and response metadata) without each handler repeating it.
 */
export function trackPages(pages: PageFetcher): { pages: PageFetcher; meta(): MessageInitShape<typeof ResponseMetaSchema> | undefined } {
  const seen: FetchedPage[] = [];
  return {
    pages: {
      fetchPage: async (request) => {
        const page = await pages.fetchPage(request);
        seen.push(page);
        return page;
      },
    },
    meta: () => {
      if (seen.length === 0) return undefined;
      const oldest = seen.reduce((a, b) => (b.retrievedAt < a.retrievedAt ? b : a));
      // A page flagged stale (served from an expired entry after an upstream failure) wins.
      const stale = seen.some((p) => (p as FetchedPage & { stale?: boolean }).stale === true);
      const cache: ResponseMeta['cache'] = stale ? CacheStatus.STALE : seen.every((p) => p.fromCache) ? CacheStatus.HIT : CacheStatus.MISS;
      return { cache, retrievedAt: timestampFromDate(oldest.retrievedAt) };
    },
  };
}
