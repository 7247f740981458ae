/**
 * The gRPC metadata a gateway (or the watcher) sends with each call to the core, declared once for
 * both sides: the core reads what the gateways' core client writes.
 */

/** The caller's request id; the core logs the call under it (a malformed one is replaced). */
export const REQUEST_ID_METADATA_KEY = 'x-request-id';

/**
 * A call's priority: `background` (a bulk job's item) yields to interactive calls at the core's
 * per-host caps; absent for interactive calls.
 */
export const PRIORITY_METADATA_KEY = 'x-retail-priority';
export const BACKGROUND_PRIORITY = 'background';

/**
 * A read past the page cache: `x-retail-read: fresh` makes the core fetch the page again instead of
 * answering from its cache (the watcher's confirmation read of an implausible value, docs/watches.md
 * "Quality marks"). Internal: only service-token callers reach the core, and no gateway sends it. The
 * fetch still goes through the core's host caps, rate limits and circuit breaker; it is never served stale.
 */
export const READ_METADATA_KEY = 'x-retail-read';
export const FRESH_READ = 'fresh';

/**
 * Why the core should keep the pages a call fetches in the page archive (docs/page-archive.md):
 * `x-retail-archive: watch-refresh` marks a watch's refresh read, whose every fetched page is kept
 * so that history can be re-derived later. Internal, like the marks above: no gateway sends it.
 */
export const ARCHIVE_METADATA_KEY = 'x-retail-archive';
export const WATCH_REFRESH_ARCHIVE = 'watch-refresh';
