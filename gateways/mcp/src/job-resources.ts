/**
 * A job's results as MCP resources: `retail://jobs/{id}/results` is the first page, and each page names
 * the next (`…/results?cursor=…`), the job's own cursor, so a client reads them by cursor as it would
 * `retail_job_results`. The URI is only an address of the watcher's pages: nothing is kept here.
 */
import type { ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

const PREFIX = 'retail://jobs/';

export const RESULTS_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${PREFIX}{id}/results{?cursor,limit}`,
  name: 'job results',
  description: 'A bulk job\'s results (a task\'s result links here), in item order, one page per read; each page gives the next page\'s URI.',
  mimeType: 'application/json',
};

export function resultsUri(jobId: string, cursor?: string, limit?: string): string {
  const query = new URLSearchParams({ ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) }).toString();
  return `${PREFIX}${encodeURIComponent(jobId)}/results${query ? `?${query}` : ''}`;
}

/** The job, cursor and page size a results URI names, or undefined for any other URI. */
export function parseResultsUri(uri: string): { id: string; cursor?: string; limit?: string } | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  const match = url.protocol === 'retail:' && url.host === 'jobs' ? /^\/([^/]+)\/results$/.exec(url.pathname) : null;
  if (!match) return undefined;
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const limit = url.searchParams.get('limit') ?? undefined;
  return { id: decodeURIComponent(match[1]!), ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) };
}

/** One page as a resource: the compact page's JSON, and where the next page is (in the JSON and in `_meta`). */
export function resultsPage(uri: string, named: { id: string; limit?: string }, page: { nextCursor?: string | null } & Record<string, unknown>): ReadResourceResult {
  const nextUri = page.nextCursor ? resultsUri(named.id, page.nextCursor, named.limit) : undefined;
  const body = { data: { retailJobResults: page }, ...(nextUri ? { nextUri } : {}) };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }], ...(nextUri ? { _meta: { nextUri } } : {}) };
}
