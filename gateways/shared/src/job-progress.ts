/**
 * A bulk job's progress as Server-Sent Events (better-sse writes the stream: headers, `id:` and
 * `event:` fields, the `retry:` hint, a comment every 15 s as a heartbeat), fed by the watcher's
 * StreamJobProgress: a `progress` event whenever the job changes, one `end` event with the final
 * state once it has ended, then the stream closes. Each event's data is `{"retailJob": {...}}`,
 * the job as GetJob answers it.
 *
 * Resuming: an event's id names the state it carries (`<status>.<done>.<failed>.<unitsCharged>`).
 * A client that reconnects with `Last-Event-ID` is not sent the state it already has; one that
 * already has an ended job's final state gets `204 No Content`, which tells an EventSource to stop
 * reconnecting. The client leaving cancels the gRPC stream, which is opened as the download's is
 * (job-stream.ts): a job of another account is an error in the envelope, before any header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Job, JobSchema, JobService, JobStatus, renderMessage } from '@retail/contract';
import { createSession } from 'better-sse';
import type { CoreClient } from './core-client.js';
import type { ClientError } from './errors.js';
import { jobStreamError, openJobStream } from './job-stream.js';
import type { ParameterStyle } from './parameters.js';

/** Milliseconds between heartbeat comments (below the idle timeouts of common proxies, 30–60 s). */
export const SSE_HEARTBEAT_MS = 15_000;

const ENDED = new Set([JobStatus.DONE, JobStatus.CANCELLED, JobStatus.FAILED]);

/** Ended and nothing runs any more: the watcher's stream ends after this state. */
const hasEnded = (job: Job) => ENDED.has(job.status) && job.expiresAt !== undefined;

/** The id of the event that carries this state. */
export function progressEventId(job: Job): string {
  return `${JobStatus[job.status]}.${job.done}.${job.failed}.${job.unitsCharged}`;
}

export interface JobProgressRequest {
  readonly id: string;
  readonly accountId: string;
  readonly requestId: string;
  readonly style: ParameterStyle;
  /** Headers every answer carries (X-Request-Id, the rate limit). */
  readonly headers: Record<string, string>;
  /** The client's `Last-Event-ID`, when it reconnects. */
  readonly lastEventId?: string;
  readonly heartbeatMs?: number;
}

/**
 * Serves the events on `res`; resolves once the stream is over. A refusal before any event (the
 * job is not the account's, the watcher is not there) is handed to `refuse`, nothing written yet.
 */
export async function serveJobProgress(
  core: Pick<CoreClient, 'streamCall'>,
  req: IncomingMessage,
  res: ServerResponse,
  request: JobProgressRequest,
  refuse: (error: ClientError) => void,
): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  const opened = await openJobStream(core, JobService.method.streamJobProgress, { id: request.id }, { ...request, signal: controller.signal });
  if (!opened.ok) return refuse(opened.error);
  const { stream } = opened;
  let next = opened.first;
  const firstJob = next.done ? undefined : next.value.job;
  if (firstJob && hasEnded(firstJob) && request.lastEventId === progressEventId(firstJob)) {
    controller.abort();
    res.writeHead(204, request.headers).end();
    return;
  }
  const session = await createSession(req, res, {
    keepAlive: request.heartbeatMs ?? SSE_HEARTBEAT_MS,
    retry: 2_000,
    headers: { ...request.headers, 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no' },
  });
  let sent = request.lastEventId;
  try {
    for (; !next.done; next = await stream.next()) {
      const { job } = next.value;
      if (!job) continue;
      const id = progressEventId(job);
      const ended = hasEnded(job);
      if (id !== sent || ended) session.push({ retailJob: renderMessage(JobSchema, job) }, ended ? 'end' : 'progress', id);
      sent = id;
      if (ended) break;
    }
  } catch (error) {
    // After the headers an error is an event: the client sees why the stream stops.
    const failure = jobStreamError(error, request.style);
    if (session.isConnected) session.push({ errors: [{ code: failure.status, message: failure.message }] }, 'error');
  } finally {
    controller.abort();
    res.end();
  }
}
