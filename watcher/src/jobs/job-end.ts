/**
 * The processor of a job's end webhook (queue job `<job id>:end`): one signed attempt per run, the
 * outcome recorded on the job. A retryable failure throws so the queue retries on the webhooks'
 * schedule (about a day); a permanent one (a refusing 4xx, a refused address, a secret that does not
 * open) is recorded DEAD at once; the dead-letter hook records DEAD for a last attempt that failed
 * otherwise. A delivered or dead webhook is never sent again by a re-run.
 */
import { type JobRun, UnrecoverableJobError } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import { openSecret, type SecretKeyring, type WebhookSender } from '../webhooks/index.js';
import { jobEndMessage } from './job-message.js';
import type { JobEndJob } from './job-queues.js';

export interface JobEndDependencies {
  readonly store: WatchStore;
  readonly keyring: SecretKeyring;
  readonly sender: Pick<WebhookSender, 'deliverOnce'>;
}

export class RetryableJobEndError extends Error {
  override readonly name = 'RetryableJobEndError';
}

export function createJobEndProcessor(deps: JobEndDependencies) {
  const { store } = deps;

  async function process(run: JobRun<JobEndJob>): Promise<void> {
    const job = await store.jobs.byId(run.data.jobId);
    const webhook = job?.webhook;
    // Gone (expired), no webhook, or finished by an earlier run of this job: nothing to send.
    if (!job || !webhook || (webhook.status !== 'PENDING' && webhook.status !== 'FAILED')) return;
    let secret: string;
    try {
      secret = openSecret(deps.keyring, webhook.secretCiphertext, job.id);
    } catch (error) {
      await store.jobs.recordWebhookAttempt(job.id, { status: 'DEAD', error: `the secret does not open: ${(error as Error).message}` });
      throw new UnrecoverableJobError(`job ${job.id} webhook: the secret does not open`);
    }
    const outcome = await deps.sender.deliverOnce({ message: jobEndMessage(job), url: webhook.url, secret });
    if (outcome.result === 'delivered') {
      await store.jobs.recordWebhookAttempt(job.id, { status: 'DELIVERED' });
      return;
    }
    const error = outcome.error ?? outcome.result;
    const final = outcome.result === 'permanent' || run.attempt >= run.maxAttempts;
    await store.jobs.recordWebhookAttempt(job.id, { status: final ? 'DEAD' : 'FAILED', error });
    if (outcome.result === 'permanent') throw new UnrecoverableJobError(`job ${job.id} webhook: ${error}`);
    throw new RetryableJobEndError(`job ${job.id} webhook: ${error}`);
  }

  /** The dead-letter hook: a last attempt that failed before recording itself. */
  async function onFinalFailure(run: JobRun<JobEndJob>, error: Error): Promise<void> {
    await store.jobs.recordWebhookAttempt(run.data.jobId, { status: 'DEAD', error: error.message.slice(0, 200) }).catch(() => undefined);
  }

  return { process, onFinalFailure };
}
