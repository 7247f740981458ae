import { marketplaceByCode } from '../marketplaces/index.js';
import type { PageFetcher } from '../pages/types.js';
import { outcomeClassOf, type OutcomeClass } from '../resilience/outcome-class.js';
import { hostOf } from '../resilience/types.js';
import type { ReachabilityTracker } from './reachability.js';

export interface ProbeResult {
  readonly host: string;
  readonly outcome: OutcomeClass;
  /** The failure itself (private: for the log), when the probe failed. */
  readonly error?: unknown;
}

/*
 * /robots.txt: the smallest page every storefront serves, and the one a polite client reads first.
 * Any answer (even a 404 of the replay server, or a block) shows DNS, TCP and TLS work; only a
 * failure to reach the host says otherwise. One storefront is enough: the 13 share the network path,
 * and probing each at every start would be 13 requests per replica for one fact.
 */
const PROBE_PATH = '/robots.txt';

/**
 * One GET through the raw upstream client (no cache, retries, breaker or caps, so it neither waits
 * behind traffic nor opens a circuit), recorded in the reachability tracker as the probe's.
 */
export async function probeMarketplace(
  fetcher: PageFetcher,
  options: { readonly tracker: ReachabilityTracker; readonly timeoutMs: number; readonly signal?: AbortSignal },
): Promise<ProbeResult> {
  const limit = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, limit]) : limit;
  const request = { marketplace: marketplaceByCode('US'), path: PROBE_PATH, kind: 'product' as const, signal };
  const host = hostOf(request);
  try {
    await fetcher.fetchPage(request);
    options.tracker.observe(host, 'ok', 'probe');
    return { host, outcome: 'ok' };
  } catch (error) {
    const outcome = outcomeClassOf(error);
    // A probe cut short by the server stopping says nothing of the marketplace.
    if (!options.signal?.aborted) options.tracker.observe(host, outcome, 'probe');
    return { host, outcome, error };
  }
}
