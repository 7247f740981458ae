/**
 * `reparse`, `reparse status` and `reparse cancel` through a running watcher's ReparseService
 * (watcher-link.ts): the watcher queues the job on its own job system and runs it there; this command
 * only asks and, unless --no-wait, follows the report until the job ends. Output and exit codes as
 * the direct path's (reparse-command.ts).
 */
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { GrpcCode, ReparseService, type ReparseJob } from '@retail/contract';
import type { ReparseJobDraft } from '../store/reparse-jobs.js';
import type { CliIo } from './pages-command.js';
import { POLL_MS, recordOfMessage, reportOf } from './reparse-report.js';
import { EXIT, linkFailureOf, WatcherCallError, type WatcherLink } from './watcher-link.js';

export type RemoteReparse = { readonly sub: 'status' | 'cancel'; readonly jobId: string } | { readonly draft: ReparseJobDraft & { readonly wait: boolean } };

const printReport = (io: CliIo, job: ReparseJob | undefined) => io.out(JSON.stringify(reportOf(recordOfMessage(job!)), null, 2));

export async function runRemoteReparse(link: WatcherLink, what: RemoteReparse, io: CliIo): Promise<number> {
  try {
    if ('draft' in what) return await startAndFollow(link, what.draft, io);
    const method = what.sub === 'status' ? ReparseService.method.getReparseJob : ReparseService.method.cancelReparseJob;
    printReport(io, (await link.call(method, { id: what.jobId })).job);
    return EXIT.ok;
  } catch (error) {
    const link_ = linkFailureOf(error, link.address);
    if (link_) {
      io.err(link_.line);
      return link_.code;
    }
    if (!(error instanceof WatcherCallError)) throw error;
    if (error.code === GrpcCode.NOT_FOUND) io.err('jobId' in what ? `no reparse job ${what.jobId}` : error.message);
    else io.err(error.message);
    // The active job's refusal is a start's; a cancel of an ended job only failed (as the direct path says).
    if (error.code === GrpcCode.FAILED_PRECONDITION && 'draft' in what) return EXIT.refused;
    return error.code === GrpcCode.INVALID_ARGUMENT ? EXIT.usage : EXIT.failed;
  }
}

async function startAndFollow(link: WatcherLink, draft: ReparseJobDraft & { readonly wait: boolean }, io: CliIo): Promise<number> {
  const started = await link.call(ReparseService.method.startReparseJob, {
    marketplace: draft.domain, kind: draft.kind, since: timestampFromDate(draft.since), ...(draft.until ? { until: timestampFromDate(draft.until) } : {}), force: draft.force,
  });
  const id = started.job!.id;
  io.err(`reparse job ${id} queued on the watcher at ${link.address}`);
  if (!draft.wait) {
    io.out(id);
    return EXIT.ok;
  }
  for (;;) {
    const { job } = await link.call(ReparseService.method.getReparseJob, { id });
    if (job!.state === 'done' || job!.state === 'failed') {
      printReport(io, job);
      return job!.state === 'done' ? EXIT.ok : EXIT.failed;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
