import type { ServerUnaryCall, UntypedServiceImplementation, sendUnaryData } from '@grpc/grpc-js';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  DataHealthService,
  GetDataStatusResponseSchema,
  ListIncidentTransitionsResponseSchema,
  type ListIncidentTransitionsRequest,
} from '@retail/contract';
import type { IncidentKeeper } from '../health/incident-keeper.js';
import { INCIDENT_STATE_VALUES } from '../health/incident-marks.js';
import type { Logger } from '../logger.js';
import { coreErrorStatus, toCoreError } from './status.js';

/*
 * retail.v1.DataHealthService (proto/retail/v1/data_health.proto): the incident state and its log
 * as this core's replica set shares them (core/src/health), for internal callers with the service
 * token. A core without page services of its own (tests that hand it pages) has judged nothing and
 * answers empty.
 */

type Incidents = Pick<IncidentKeeper, 'refresh' | 'records' | 'transitionsAfter'>;

function unary<Req>(logger: Logger, handle: (request: Req) => Promise<unknown>) {
  return (call: ServerUnaryCall<Req, unknown>, callback: sendUnaryData<unknown>) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        logger.warn({ err: error, rpc: call.getPath() }, 'data health call failed');
        callback(coreErrorStatus(toCoreError(error, false)));
      },
    );
  };
}

export function createDataHealthImplementation(incidents: Incidents | undefined, logger: Logger): UntypedServiceImplementation {
  const methods = DataHealthService.method;
  return {
    [methods.getDataStatus.name]: unary(logger, async () => {
      await incidents?.refresh();
      const kinds = (incidents?.records() ?? []).map((r) => ({
        marketplace: r.marketplace,
        kind: r.kind,
        state: INCIDENT_STATE_VALUES[r.state],
        ...(r.since > 0 ? { since: timestampFromMs(r.since) } : {}),
        fields: [...r.fields],
      }));
      return create(GetDataStatusResponseSchema, { kinds });
    }),
    [methods.listIncidentTransitions.name]: unary(logger, async (request: ListIncidentTransitionsRequest) => {
      const { transitions, lastSeq } = incidents ? await incidents.transitionsAfter(Number(request.afterSeq)) : { transitions: [], lastSeq: 0 };
      return create(ListIncidentTransitionsResponseSchema, {
        lastSeq: BigInt(lastSeq),
        transitions: transitions.map((t) => ({
          seq: BigInt(t.seq),
          marketplace: t.marketplace,
          kind: t.kind,
          from: INCIDENT_STATE_VALUES[t.from],
          to: INCIDENT_STATE_VALUES[t.to],
          fields: [...t.fields],
          at: timestampFromMs(t.at),
        })),
      });
    }),
  };
}
