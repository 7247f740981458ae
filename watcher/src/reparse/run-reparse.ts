/**
 * One reparse job's run: walks the archived pages of its marketplace and kind in its window, oldest
 * first, from its cursor; has each read again by the core's current parser
 * (PageArchiveService.ReparseArchivedPage) and records what changed (store/reparse-jobs.ts: the
 * corrected points, their audit rows, the cursor, in one transaction per page).
 *
 * Never an event or a webhook: it writes snapshots and their revisions only, and nothing that
 * evaluates conditions reads them back as a change (the next refresh compares with the latest point
 * as it now reads, which is the truth). A page already read by the current parser is skipped unless
 * the job was asked to force it, so a second run changes nothing.
 */
import { PageArchiveService } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared';
import type { JobRun } from '../queue/index.js';
import { snapshotFieldsOf } from '../refresh/snapshot-fields.js';
import { type ArchivedPageRow, parserOfPage } from '../store/archived-pages.js';
import type { WatchStore } from '../store/index.js';
import type { PageOutcome } from '../store/reparse-jobs.js';
import { REPARSE_BATCH, type ReparseJob } from './reparse-queue.js';

export interface ReparseDependencies {
  readonly store: Pick<WatchStore, 'pages' | 'reparseJobs'>;
  readonly core: Pick<CoreClient, 'unaryCall'>;
  readonly log: (line: string) => void;
}

export function createReparseProcessor(deps: ReparseDependencies) {
  const { store, core } = deps;

  async function reread(page: ArchivedPageRow, jobId: string): Promise<PageOutcome & { parser?: string }> {
    const answer = await core.unaryCall(PageArchiveService.method.reparseArchivedPage, {
      marketplace: page.domain, kind: page.kind, identifier: page.identifier, url: page.url, status: page.status, encoding: page.encoding, body: page.body,
    }, { requestId: `reparse-${jobId}-${page.id}` });
    if (!answer.product) return { kind: 'unreadable', parser: answer.parser };
    return { kind: 'read', parser: answer.parser, fields: snapshotFieldsOf(answer.product, answer.sales) };
  }

  return async function processReparse(run: JobRun<ReparseJob>): Promise<void> {
    const { jobId } = run.data;
    const job = await store.reparseJobs.get(jobId);
    if (!job || job.state === 'done' || job.state === 'failed') return;
    if (job.state === 'queued') await store.reparseJobs.setState(jobId, 'running');
    // The current parser, learned from the core's first answer: pages already read by it are then
    // skipped without sending them.
    let current: string | undefined;
    let after = job.cursor;
    for (;;) {
      const pages = await store.pages.listSince({
        domain: job.domain, kind: job.kind, since: job.since, ...(job.until ? { until: job.until } : {}), ...(after ? { after } : {}), limit: REPARSE_BATCH,
      });
      if (pages.length === 0) break;
      for (const page of pages) {
        const readWith = parserOfPage(page);
        let outcome: PageOutcome;
        if (!job.force && current !== undefined && readWith === current) outcome = { kind: 'skipped' };
        else {
          const answer = await reread(page, jobId);
          current = answer.parser;
          outcome = !job.force && readWith === current ? { kind: 'skipped' } : answer;
        }
        await store.reparseJobs.applyPage(jobId, page, outcome);
        after = { fetchedAt: page.fetchedAt, id: page.id };
      }
    }
    await store.reparseJobs.setState(jobId, 'done');
    const done = await store.reparseJobs.get(jobId);
    deps.log(`reparse ${jobId} done: ${JSON.stringify({ counts: done?.counts, fields: done?.fields })}`);
  };
}
