/**
 * What a page did wrong in a browser test, collected as it happens: console errors (chromium reports a
 * CSP refusal as one), uncaught errors, failed requests and any request to another origin. A test
 * empties the list for its own pages and expects it empty.
 */
import type { Page } from 'playwright-core';

export function collectPageProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('requestfailed', (request) => {
    // The docs site prefetches the chunks of the pages its links lead to; leaving the page cancels
    // the ones still in flight (ERR_ABORTED), which is no failure of the page.
    const cancelledPrefetch = request.failure()?.errorText === 'net::ERR_ABORTED' && new URL(request.url()).pathname.startsWith('/docs/assets/');
    if (!cancelledPrefetch) problems.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) problems.push(`left the origin: ${request.url()}`);
  });
  return problems;
}
