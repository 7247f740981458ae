/**
 * A bulk job's results downloaded as NDJSON (each line the batch entry of one item, as
 * `POST /api/retail/batch` writes it) or CSV (job-csv.ts), streamed from the watcher's
 * StreamJobResults as they are read from storage: nothing holds more than the watcher's page and
 * the socket's buffers, whatever the job's size. Each write waits for the previous one to drain,
 * so a slow reader slows the gRPC stream (its flow control) instead of filling memory. The REST
 * route and the console's download share it.
 * The stream is opened as the progress events' is (job-stream.ts): a refusal is an error in the envelope.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { JobService } from '@retail/contract';
import type { CoreClient } from './core-client.js';
import type { ClientError } from './errors.js';
import { jobCsvHeader, jobCsvRow } from './job-csv.js';
import { jobResultEntry } from './job-results.js';
import { type JobStreamCaller, openJobStream } from './job-stream.js';

export type JobDownloadFormat = 'ndjson' | 'csv';

export const NDJSON_TYPE = 'application/x-ndjson';
export const CSV_TYPE = 'text/csv';

export interface JobDownloadRequest extends JobStreamCaller {
  readonly id: string;
  readonly format: JobDownloadFormat;
  /** Resume after this item index (the last line's `index`). */
  readonly cursor?: string;
  /** Wait for results still to come until the job has ended. */
  readonly follow?: boolean;
}

export type JobDownload =
  | { readonly ok: false; readonly error: ClientError }
  | {
    readonly ok: true;
    /** The media type to answer with. */
    readonly contentType: string;
    /** Writes every result to `res` (after the caller has set the status and headers) and ends it. */
    writeTo(res: ServerResponse): Promise<void>;
  };

/** Writes `chunk`, waiting for the socket to drain first when its buffer is full. */
async function send(res: ServerResponse, chunk: string, signal: AbortSignal): Promise<void> {
  if (!res.write(chunk)) await once(res, 'drain', { signal });
}

export async function openJobDownload(core: Pick<CoreClient, 'streamCall'>, request: JobDownloadRequest): Promise<JobDownload> {
  const opened = await openJobStream(core, JobService.method.streamJobResults, { id: request.id, ...(request.cursor !== undefined && { cursor: request.cursor }), follow: request.follow === true }, request);
  if (!opened.ok) return opened;
  const { first, stream } = opened;
  const line = request.format === 'csv' ? jobCsvRow : (result: Parameters<typeof jobCsvRow>[0]) => `${JSON.stringify(jobResultEntry(result, request.style))}\n`;
  return {
    ok: true,
    contentType: request.format === 'csv' ? `${CSV_TYPE}; charset=utf-8; header=present` : `${NDJSON_TYPE}; charset=utf-8`,
    async writeTo(res) {
      const { signal } = request;
      try {
        if (request.format === 'csv') await send(res, jobCsvHeader(), signal);
        for (let next = first; !next.done; next = await stream.next()) {
          if (next.value.result) await send(res, line(next.value.result), signal);
        }
        res.end();
      } catch (error) {
        // The status line has left: a broken stream can only be cut short, so the client sees a
        // truncated body (no terminating chunk) instead of a complete-looking one.
        await stream.return?.(undefined).catch(() => undefined);
        if (!signal.aborted) res.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
