/**
 * One request may make several core calls; its X-Cache and X-Retrieved-At describe them together:
 * MISS when any call went upstream, STALE when any answer was stale, HIT only when all were hits,
 * and the oldest retrieval time.
 */
import type { ResponseInfo } from '@retail/gateway-shared';

export function combinedResponseInfo(infos: readonly ResponseInfo[]): ResponseInfo {
  if (infos.length === 0) return {};
  const caches = infos.map((i) => i.cache);
  const cache = caches.includes(undefined) ? undefined : caches.includes('MISS') ? 'MISS' : caches.includes('STALE') ? 'STALE' : 'HIT';
  const times = infos.flatMap((i) => (i.retrievedAt ? [i.retrievedAt] : [])).sort();
  return { ...(cache ? { cache } : {}), ...(times[0] ? { retrievedAt: times[0] } : {}) };
}
