import type { FetchedPage, PageFetcher, PageRequest } from '../operations/types.js';
import { createSingleFlight } from '../cache/single-flight.js';
import { pageUrl } from '../cache/parsed-pages.js';

/**
 * Single-flight on the raw fetch: concurrent requests for the same page URL (and page kind, which
 * decides cookies) share one upstream fetch. Handlers that still fetch HTML themselves get this
 * without a change; handlers on ParsedPageSource share the parse as well.
 */
export function withSharedFetches(inner: PageFetcher): PageFetcher & { readonly inFlight: number } {
  const flights = createSingleFlight();
  return {
    async fetchPage(request: PageRequest): Promise<FetchedPage> {
      const key = `${request.kind} ${pageUrl(request)}`;
      const { value } = await flights.run(key, request.signal, (signal) => inner.fetchPage({ ...request, signal }));
      return value;
    },
    get inFlight() {
      return flights.inFlight;
    },
  };
}
