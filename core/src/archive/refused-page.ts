/**
 * A page the core refused (a block page, or one its parser could not read) travels on the error it
 * caused, so that the page source can archive it. The property is a symbol and not enumerable: it
 * never reaches a log line or a client.
 */
import type { FetchedPage } from '../pages/types.js';

const REFUSED_PAGE = Symbol('retail.refused-page');

export function withRefusedPage<E>(error: E, page: FetchedPage): E {
  if (typeof error === 'object' && error !== null && !(REFUSED_PAGE in error)) {
    Object.defineProperty(error, REFUSED_PAGE, { value: page, enumerable: false });
  }
  return error;
}

export function refusedPageOf(error: unknown): FetchedPage | undefined {
  return typeof error === 'object' && error !== null ? (error as { [REFUSED_PAGE]?: FetchedPage })[REFUSED_PAGE] : undefined;
}
