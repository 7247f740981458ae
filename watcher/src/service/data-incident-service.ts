/**
 * retail.v1.DataIncidentService (proto/retail/v1/data_health.proto): the incident changes the
 * watcher keeps (docs/data-health.md), for the status page. No account: the data status is the same
 * for everyone; the service token is still required (the server's interceptor).
 */
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { DataIncidentService, DataIncidentState, ListDataIncidentChangesResponseSchema, type ListDataIncidentChangesRequest } from '@retail/contract';
import type { IncidentStateName, WatchStore } from '../store/index.js';
import type { ServiceLog } from './deps.js';
import { grpcStatusOf, toWatchServiceError } from './errors.js';

/** The status page's window: the last 30 days. */
export const DEFAULT_HISTORY_MS = 30 * 86_400_000;

const STATES: Record<IncidentStateName, DataIncidentState> = {
  healthy: DataIncidentState.HEALTHY,
  degraded: DataIncidentState.DEGRADED,
  major: DataIncidentState.MAJOR,
};

export function dataIncidentImplementation(store: Pick<WatchStore, 'incidents'>, log?: ServiceLog, now: () => number = Date.now): UntypedServiceImplementation {
  return {
    [DataIncidentService.method.listDataIncidentChanges.name]: (call: ServerUnaryCall<ListDataIncidentChangesRequest, unknown>, callback: sendUnaryData<unknown>) => {
      const since = call.request.since ? timestampDate(call.request.since) : new Date(now() - DEFAULT_HISTORY_MS);
      store.incidents.since(since).then(
        (changes) => callback(null, create(ListDataIncidentChangesResponseSchema, {
          changes: changes.map((c) => ({ seq: BigInt(c.coreSeq), marketplace: c.marketplace, kind: c.kind, from: STATES[c.from], to: STATES[c.to], fields: [...c.fields], at: timestampFromDate(c.at) })),
        })),
        (error: unknown) => {
          log?.error({ err: error, rpc: 'ListDataIncidentChanges' }, 'call failed');
          callback(grpcStatusOf(toWatchServiceError(error)));
        },
      );
    },
  };
}
