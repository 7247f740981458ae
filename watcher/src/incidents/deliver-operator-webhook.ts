/**
 * The operator webhook of one incident change: a Standard Webhooks POST to OPERATOR_WEBHOOK_URL
 * signed with OPERATOR_WEBHOOK_SECRET. The message id (`incident_<row id>`) is the same on every
 * attempt, so the receiver keeps each change once however often it is retried. A retryable failure
 * throws so the queue retries on the webhook schedule; a permanent one is recorded DEAD.
 */
import type { JobRun } from '../queue/index.js';
import { UnrecoverableJobError } from '../queue/index.js';
import type { IncidentChange, WatchStore } from '../store/index.js';
import type { WebhookSender } from '../webhooks/index.js';
import type { OperatorWebhook } from './operator-config.js';
import type { OperatorWebhookJob } from './incident-queues.js';
import { changeVerb } from './read-incident-log.js';

export interface OperatorWebhookDependencies {
  readonly store: Pick<WatchStore, 'incidents'>;
  readonly sender: Pick<WebhookSender, 'deliverOnce'>;
  readonly webhook: OperatorWebhook;
}

export class RetryableOperatorWebhookError extends Error {
  override readonly name = 'RetryableOperatorWebhookError';
}

/** The body: what changed, where, and the fields affected after the change. */
export function incidentMessage(change: IncidentChange) {
  return {
    id: `incident_${change.id}`,
    payload: {
      type: `DATA_INCIDENT_${changeVerb(change).toUpperCase()}`,
      incident: { marketplace: change.marketplace, kind: change.kind, from: change.from, to: change.to, fields: [...change.fields] },
      at: change.at.toISOString(),
    },
  };
}

export function createOperatorWebhookProcessor(deps: OperatorWebhookDependencies) {
  const { store } = deps;

  async function process(run: JobRun<OperatorWebhookJob>): Promise<void> {
    const change = await store.incidents.byId(run.data.changeId);
    // Sent by an earlier run of this job (or stored before a webhook was configured): nothing to do.
    if (!change || (change.webhookStatus !== 'PENDING' && change.webhookStatus !== 'FAILED')) return;
    const outcome = await deps.sender.deliverOnce({ message: incidentMessage(change), url: deps.webhook.url, secret: deps.webhook.secret });
    if (outcome.result === 'delivered') {
      await store.incidents.recordWebhookAttempt(change.id, { status: 'DELIVERED' });
      return;
    }
    const error = outcome.error ?? outcome.result;
    const final = outcome.result === 'permanent' || run.attempt >= run.maxAttempts;
    await store.incidents.recordWebhookAttempt(change.id, { status: final ? 'DEAD' : 'FAILED', error });
    if (outcome.result === 'permanent') throw new UnrecoverableJobError(`operator webhook of incident change ${change.id}: ${error}`);
    throw new RetryableOperatorWebhookError(`operator webhook of incident change ${change.id}: ${error}`);
  }

  async function onFinalFailure(run: JobRun<OperatorWebhookJob>, error: Error): Promise<void> {
    await store.incidents.recordWebhookAttempt(run.data.changeId, { status: 'DEAD', error: error.message.slice(0, 200) }).catch(() => undefined);
  }

  return { process, onFinalFailure };
}
