/**
 * Opening one of the watcher's job streams (StreamJobResults, StreamJobProgress) for the caller's
 * account, as the results download and the progress events both do: the first message (or the
 * stream's failure) is awaited before anything is written, so another account's job, an unknown id
 * or a watcher that is not there answers its error in the envelope, mapped as GetJob's (its `id` in
 * the path).
 */
import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { JobService } from '@retail/contract';
import type { CoreClient, StreamingMethod } from './core-client.js';
import { type ClientError, mapCoreError } from './errors.js';
import type { ParameterStyle } from './parameters.js';
import { registryOperation } from './registry.js';

/** A stream reads as long as its client does; the deadline is only a backstop (24 h). */
const JOB_STREAM_DEADLINE_MS = 24 * 60 * 60 * 1000;

const GET_JOB = registryOperation(JobService.method.getJob.name);

export interface JobStreamCaller {
  readonly accountId: string;
  readonly requestId: string;
  /** Error paths as this interface writes them. */
  readonly style: ParameterStyle;
  /** Aborted when the client leaves: the watcher's stream ends with it. */
  readonly signal: AbortSignal;
}

export type OpenedJobStream<T> =
  | { readonly ok: false; readonly error: ClientError }
  | { readonly ok: true; readonly first: IteratorResult<T>; readonly stream: AsyncIterator<T> };

export async function openJobStream<M extends StreamingMethod>(
  core: Pick<CoreClient, 'streamCall'>,
  method: M,
  message: MessageInitShape<M['input']>,
  caller: JobStreamCaller,
): Promise<OpenedJobStream<MessageShape<M['output']>>> {
  const { requestId, accountId, signal } = caller;
  const stream = core.streamCall(method, message, { requestId, accountId, deadlineMs: JOB_STREAM_DEADLINE_MS, signal })[Symbol.asyncIterator]();
  try {
    return { ok: true, first: await stream.next(), stream };
  } catch (error) {
    return { ok: false, error: mapCoreError(error, GET_JOB, caller.style) };
  }
}

/** A job stream's error after its first message, as the envelope would carry it. */
export const jobStreamError = (error: unknown, style: ParameterStyle): ClientError => mapCoreError(error, GET_JOB, style);
