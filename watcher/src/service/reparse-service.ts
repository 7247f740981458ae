/**
 * retail.v1.ReparseService (proto/retail/v1/page_archive.proto): the admin CLI's re-parse jobs
 * (docs/page-archive.md, "Repairing history") asked of a running watcher, so that an operator
 * repairs history without opening its database (PGlite opens in one process only: `npm start` would
 * have to stop). The job is queued exactly as the CLI queues it (reparse/start-reparse-job.ts) and
 * runs on this watcher's job system. No account: the service token is required (the server's
 * interceptor).
 *
 * The one-active-job refusal and the cancel of an ended job answer FAILED_PRECONDITION with the
 * CLI's own wording and no ErrorDetail: the contract's error reasons are the public API's, and none
 * of them is this internal conflict; the code alone tells the CLI what happened.
 */
import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Metadata, status as GrpcStatus, type sendUnaryData, type ServerUnaryCall, type UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  CancelReparseJobResponseSchema, ErrorReason, GetReparseJobResponseSchema, ReparseJobSchema, ReparseService, StartReparseJobResponseSchema,
  type CancelReparseJobRequest, type GetReparseJobRequest, type StartReparseJobRequest,
} from '@retail/contract';
import type { JobSystem } from '../queue/index.js';
import { CANCELLED_BY_OPERATOR, REPARSED_KINDS, startReparseJob } from '../reparse/start-reparse-job.js';
import type { WatchStore } from '../store/index.js';
import type { ReparseJobRecord } from '../store/reparse-jobs.js';
import type { ServiceLog } from './deps.js';
import { grpcStatusOf, invalidArgument, toWatchServiceError, WatchServiceError } from './errors.js';
import { marketplaceCodeOf } from './request-checks.js';

export interface ReparseServiceDeps {
  readonly store: Pick<WatchStore, 'reparseJobs'>;
  /** Where the job is queued: this watcher's job system (its workers, or another replica's on BullMQ, run it). */
  readonly jobs: Pick<JobSystem, 'queue'>;
}

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refusal for the job's state, not the request: FAILED_PRECONDITION (see the header). */
class JobStateConflict extends Error {}

export function reparseJobMessage(job: ReparseJobRecord) {
  return create(ReparseJobSchema, {
    id: job.id, state: job.state, marketplace: job.domain, kind: job.kind, since: timestampFromDate(job.since),
    ...(job.until ? { until: timestampFromDate(job.until) } : {}), force: job.force,
    pages: job.counts.pages, reparsed: job.counts.reparsed, skipped: job.counts.skipped, unreadable: job.counts.unreadable,
    withoutPoint: job.counts.withoutPoint, pointsRevised: job.counts.pointsRevised,
    corrected: { ...job.fields }, error: job.error ?? '', createdAt: timestampFromDate(job.createdAt),
    ...(job.finishedAt ? { finishedAt: timestampFromDate(job.finishedAt) } : {}),
  });
}

function timeOf(timestamp: Timestamp | undefined, field: string): Date | undefined {
  if (!timestamp) return undefined;
  const time = timestampDate(timestamp);
  if (Number.isNaN(time.getTime())) throw invalidArgument(`${field} is not a time`, field);
  return time;
}

function jobIdOf(request: { id: string }): string {
  if (!JOB_ID.test(request.id)) throw invalidArgument(`id must be a reparse job id (a UUID), got ${JSON.stringify(request.id.slice(0, 64))}`, 'id');
  return request.id.toLowerCase();
}

function draftOf(request: StartReparseJobRequest) {
  const domain = marketplaceCodeOf(request.marketplace);
  if (!REPARSED_KINDS.includes(request.kind)) throw invalidArgument(`kind must be one of ${REPARSED_KINDS.join(', ')} (history comes from product pages)`, 'kind');
  const since = timeOf(request.since, 'since');
  if (!since) throw invalidArgument('since is required: the oldest fetch to read again', 'since');
  const until = timeOf(request.until, 'until');
  if (until && until <= since) throw invalidArgument('until must be after since', 'until');
  return { id: randomUUID(), domain, kind: request.kind, since, ...(until ? { until } : {}), force: request.force };
}

export function reparseImplementation(deps: ReparseServiceDeps, log?: ServiceLog): UntypedServiceImplementation {
  const { store } = deps;
  const unary = <Request>(rpc: string, answer: (request: Request) => Promise<unknown>) =>
    (call: ServerUnaryCall<Request, unknown>, callback: sendUnaryData<unknown>) => {
      Promise.resolve().then(() => answer(call.request)).then(
        (response) => callback(null, response),
        (error: unknown) => {
          if (error instanceof JobStateConflict) return callback({ code: GrpcStatus.FAILED_PRECONDITION, details: error.message, metadata: new Metadata() });
          const failure = toWatchServiceError(error);
          if (failure.reason === ErrorReason.INTERNAL) log?.error({ err: error, rpc }, 'call failed');
          callback(grpcStatusOf(failure));
        },
      );
    };
  const jobOf = async (id: string) => {
    const job = await store.reparseJobs.get(id);
    if (!job) throw new WatchServiceError(ErrorReason.NOT_FOUND, `no reparse job ${id}`, ['id']);
    return job;
  };

  return {
    [ReparseService.method.startReparseJob.name]: unary<StartReparseJobRequest>('StartReparseJob', async (request) => {
      const draft = draftOf(request);
      const started = await startReparseJob(store, deps.jobs, draft);
      if (!started.queued) throw new JobStateConflict(started.refusal);
      log?.info({ jobId: draft.id, domain: draft.domain, kind: draft.kind }, 'reparse job queued');
      return create(StartReparseJobResponseSchema, { job: reparseJobMessage(await jobOf(draft.id)) });
    }),
    [ReparseService.method.getReparseJob.name]: unary<GetReparseJobRequest>('GetReparseJob', async (request) => {
      return create(GetReparseJobResponseSchema, { job: reparseJobMessage(await jobOf(jobIdOf(request))) });
    }),
    [ReparseService.method.cancelReparseJob.name]: unary<CancelReparseJobRequest>('CancelReparseJob', async (request) => {
      const id = jobIdOf(request);
      if (!(await store.reparseJobs.cancel(id, CANCELLED_BY_OPERATOR))) throw new JobStateConflict(`reparse job ${id} is already ${(await jobOf(id)).state}`);
      // Its run, if one is on it, stops at its next page (it writes nothing past the cancel).
      return create(CancelReparseJobResponseSchema, { job: reparseJobMessage(await jobOf(id)) });
    }),
  };
}
