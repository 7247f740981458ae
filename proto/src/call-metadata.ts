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
