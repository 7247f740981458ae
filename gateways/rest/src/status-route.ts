/**
 * `GET /api/status` (docs/data-health.md): how well the service reads each marketplace, page kind by
 * page kind, from the core's DataHealthService. Public: no key, never metered, the same answer for
 * everyone, so shared caches may keep it a few seconds.
 *
 *   {"data": {"retailStatus": {"marketplaces": [{"domain": "US", "kinds": [{"kind": "product",
 *     "state": "major", "since": "2026-11-28T18:40:12.345Z", "fields": ["price", "isInStock"]}]}]}}}
 */
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { DataHealthService, dataIncidentStateName, errorEnvelope, type GetDataStatusResponse } from '@retail/contract';
import { type CoreClient, requestIdFrom } from '@retail/gateway-shared';
import type { RequestHandler } from 'express';

export const STATUS_PATH = '/api/status';

export interface KindStatus {
  readonly kind: string;
  readonly state: string;
  readonly since: string | null;
  readonly fields: string[];
}

/** The core's answer in the public shape: marketplaces and kinds in a stable (alphabetical) order. */
export function retailStatus(status: GetDataStatusResponse): { marketplaces: { domain: string; kinds: KindStatus[] }[] } {
  const byDomain = new Map<string, KindStatus[]>();
  for (const k of status.kinds) {
    const state = dataIncidentStateName(k.state);
    if (!state) continue;
    const kinds = byDomain.get(k.marketplace) ?? [];
    kinds.push({ kind: k.kind, state, since: k.since ? timestampDate(k.since).toISOString() : null, fields: [...k.fields] });
    byDomain.set(k.marketplace, kinds);
  }
  return {
    marketplaces: [...byDomain]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([domain, kinds]) => ({ domain, kinds: kinds.sort((a, b) => a.kind.localeCompare(b.kind)) })),
  };
}

export function statusRoute(core: Pick<CoreClient, 'unaryCall'>): RequestHandler {
  return async (req, res) => {
    const requestId = requestIdFrom(req.headers);
    res.set('X-Request-Id', requestId);
    try {
      const status = await core.unaryCall(DataHealthService.method.getDataStatus, {}, { requestId });
      res.set('Cache-Control', 'public, max-age=5').json({ data: { retailStatus: retailStatus(status) } });
    } catch {
      res.status(503).set({ 'Retry-After': '5', 'Cache-Control': 'no-store' }).json(errorEnvelope(503, 'the data status is unavailable: the core did not answer'));
    }
  };
}
