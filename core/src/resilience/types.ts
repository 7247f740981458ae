import type { PageFetcher, PageRequest } from '../operations/types.js';
import { hostForKind } from '../upstream/hosts.js';

/**
 * A page request as the resilience layer may receive it: the call's absolute deadline (epoch ms),
 * when the caller knows it, lets retries stop early instead of sleeping into an abort.
 */
export interface ResilientPageRequest extends PageRequest {
  readonly deadlineAt?: number;
}

/** A decorator: wraps a PageFetcher and keeps its interface (so decorators compose in any order). */
export type PageFetcherDecorator = (inner: PageFetcher) => PageFetcher;

/** The host a request goes to: the unit of breakers and caps. */
export const hostOf = (request: PageRequest): string => hostForKind(request.marketplace, request.kind);
