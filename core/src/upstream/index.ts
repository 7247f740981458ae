export { classifyUpstream, outcomeError, type UpstreamOutcome } from './classify.js';
export { createPageFetcher, type ClosablePageFetcher, type PageFetcherOptions } from './fetcher.js';
export { hostForKind, isAllowedHost, isMarketplaceOrigin, pathWithQuery } from './hosts.js';
