import type { PageFetcher, PageRequest } from '../pages/types.js';
import { hostForKind } from '../pages/hosts.js';

/** A page request as the resilience layer receives it (its `deadlineAt` bounds the retries). */
export type ResilientPageRequest = PageRequest;

/** A decorator: wraps a PageFetcher and keeps its interface (so decorators compose in any order). */
export type PageFetcherDecorator = (inner: PageFetcher) => PageFetcher;

/** The host a request goes to: the unit of breakers and caps. */
export const hostOf = (request: PageRequest): string => hostForKind(request.marketplace, request.kind);
