/**
 * One read of the core's incident log (DataHealthService.ListIncidentTransitions): the changes after
 * the stored position are kept in PostgreSQL (a change read twice is kept once), each new one logged
 * and, when the operator has a webhook, queued for it. The position moves in the same transaction,
 * so a crash between the read and the write reads the same changes again, harmlessly. A log that
 * restarted below the stored position (the core's cache Redis was lost) is read from its start.
 */
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { DataHealthService, DataIncidentState, type DataIncidentTransition } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared';
import type { JobQueue } from '../queue/index.js';
import type { IncidentChange, IncidentChangeDraft, IncidentStateName, WatchStore } from '../store/index.js';
import { operatorWebhookJobId, type OperatorWebhookJob } from './incident-queues.js';

const STATE_NAMES: Partial<Record<DataIncidentState, IncidentStateName>> = {
  [DataIncidentState.HEALTHY]: 'healthy',
  [DataIncidentState.DEGRADED]: 'degraded',
  [DataIncidentState.MAJOR]: 'major',
};

export interface IncidentLogDependencies {
  readonly store: Pick<WatchStore, 'incidents'>;
  readonly core: Pick<CoreClient, 'unaryCall'>;
  /** The operator webhook's queue; absent when no OPERATOR_WEBHOOK_URL is configured. */
  readonly operatorWebhooks?: JobQueue<OperatorWebhookJob>;
  readonly log: (line: string) => void;
}

function draftOf(t: DataIncidentTransition): IncidentChangeDraft | undefined {
  const from = STATE_NAMES[t.from];
  const to = STATE_NAMES[t.to];
  if (!from || !to || !t.at) return undefined;
  return { marketplace: t.marketplace, kind: t.kind, from, to, fields: [...t.fields], at: timestampDate(t.at), coreSeq: Number(t.seq) };
}

export const changeVerb = (c: Pick<IncidentChange, 'from' | 'to'>) => (c.from === 'healthy' ? 'opened' : c.to === 'healthy' ? 'closed' : 'changed');

export function createIncidentLogReader(deps: IncidentLogDependencies) {
  const read = (afterSeq: number) =>
    deps.core.unaryCall(DataHealthService.method.listIncidentTransitions, { afterSeq: BigInt(afterSeq) }, { requestId: `incident-log-${Date.now()}` });

  /** Reads and keeps what is new; the changes stored by this run. */
  return async function readIncidentLog(): Promise<IncidentChange[]> {
    const position = await deps.store.incidents.logPosition();
    let answer = await read(position);
    if (Number(answer.lastSeq) < position) answer = await read(0);
    const drafts = answer.transitions.map(draftOf).filter((d): d is IncidentChangeDraft => d !== undefined);
    const stored = await deps.store.incidents.record(drafts, Number(answer.lastSeq), deps.operatorWebhooks !== undefined);
    for (const change of stored) {
      deps.log(`data incident ${changeVerb(change)}: ${JSON.stringify({ marketplace: change.marketplace, kind: change.kind, from: change.from, to: change.to, fields: change.fields, at: change.at.toISOString() })}`);
      await deps.operatorWebhooks?.add({ changeId: change.id }, { id: operatorWebhookJobId(change.id) });
    }
    return stored;
  };
}
