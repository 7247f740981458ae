/**
 * One reparse job's run: walks the archived pages of its marketplace and kind in its window, oldest
 * first, from its cursor; has each read again by the core's current parser
 * (PageArchiveService.ReparseArchivedPage), `concurrency` pages at a time, and records what changed
 * page by page in the walk's order (store/reparse-jobs.ts: the corrected points, their audit rows,
 * the cursor, in one transaction per page; read-in-order.ts).
 *
 * Never an event or a webhook: it writes snapshots and their revisions only, and nothing that
 * evaluates conditions reads them back as a change (the next refresh compares with the latest point
 * as it now reads, which is the truth). A page already read by the current parser is skipped unless
 * the job was asked to force it, so a second run changes nothing.
 *
 * One run of a job at a time: a replica that takes a job another replica still runs (the queue hands
 * a job on when its lock lapses, e.g. under a long stall) finds the job's advisory lock held and
 * leaves the job to it; and a run writes a page only where it expects the job's cursor
 * (store/reparse-jobs.ts applyPage), so even a run that lost its lock writes nothing twice.
 */
import { PageArchiveService } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared';
import type { JobRun } from '../queue/index.js';
import { snapshotFieldsOf } from '../refresh/snapshot-fields.js';
import { type ArchivedPageRow, parserOfPage } from '../store/archived-pages.js';
import type { WatchStore } from '../store/index.js';
import type { PageOutcome, ReparseCursor, ReparseJobRecord } from '../store/reparse-jobs.js';
import { createRunLock } from '../store/run-lock.js';
import { readInOrder } from './read-in-order.js';
import { DEFAULT_REPARSE_CONCURRENCY, REPARSE_BATCH, type ReparseJob } from './reparse-queue.js';

/** The first key of the two-key advisory lock: re-parsing's job runs ("wrpa"). */
const LOCK_SPACE = 0x77727061;

export interface ReparseDependencies {
  readonly store: Pick<WatchStore, 'db' | 'pages' | 'reparseJobs'>;
  readonly core: Pick<CoreClient, 'unaryCall'>;
  readonly log: (line: string) => void;
  /** Pages of a job the core reads at once (REPARSE_CONCURRENCY); default DEFAULT_REPARSE_CONCURRENCY. */
  readonly concurrency?: number;
}

export function createReparseProcessor(deps: ReparseDependencies) {
  const { store, core } = deps;
  const concurrency = deps.concurrency ?? DEFAULT_REPARSE_CONCURRENCY;
  const oneRunPerJob = createRunLock(store.db, LOCK_SPACE);

  async function reread(page: ArchivedPageRow, jobId: string): Promise<PageOutcome & { parser: string }> {
    const answer = await core.unaryCall(PageArchiveService.method.reparseArchivedPage, {
      marketplace: page.domain, kind: page.kind, identifier: page.identifier, url: page.url, status: page.status, encoding: page.encoding, body: page.body,
    }, { requestId: `reparse-${jobId}-${page.id}` });
    if (!answer.product) return { kind: 'unreadable', parser: answer.parser };
    return { kind: 'read', parser: answer.parser, fields: snapshotFieldsOf(answer.product, answer.sales) };
  }

  /** The job's pages from its cursor on, listed REPARSE_BATCH at a time (bodies included). */
  async function* pagesOf(job: ReparseJobRecord): AsyncGenerator<ArchivedPageRow> {
    let after = job.cursor;
    for (;;) {
      const pages = await store.pages.listSince({
        domain: job.domain, kind: job.kind, since: job.since, ...(job.until ? { until: job.until } : {}), ...(after ? { after } : {}), limit: REPARSE_BATCH,
      });
      if (pages.length === 0) return;
      yield* pages;
      const last = pages.at(-1)!;
      after = { fetchedAt: last.fetchedAt, id: last.id };
    }
  }

  async function walk(job: ReparseJobRecord): Promise<'done' | 'stopped'> {
    // The current parser, learned from the core's first answer (read alone, before any other page is
    // sent): pages already read by it are then skipped without sending them.
    let current: string | undefined;
    let cursor: ReparseCursor | undefined = job.cursor;
    return readInOrder(pagesOf(job), {
      concurrency,
      lookahead: 2 * concurrency,
      oneAtATime: () => !job.force && current === undefined,
      read: async (page): Promise<PageOutcome> => {
        const readWith = parserOfPage(page);
        if (!job.force && current !== undefined && readWith === current) return { kind: 'skipped' };
        const answer = await reread(page, job.id);
        current = answer.parser;
        return !job.force && readWith === answer.parser ? { kind: 'skipped' } : answer;
      },
      apply: async (page, outcome) => {
        if (!(await store.reparseJobs.applyPage(job.id, cursor, page, outcome))) return false;
        cursor = { fetchedAt: page.fetchedAt, id: page.id };
        return true;
      },
    });
  }

  async function runLocked(jobId: string): Promise<void> {
    const job = await store.reparseJobs.get(jobId);
    if (!job || job.state === 'done' || job.state === 'failed') return;
    if (!(await store.reparseJobs.setState(jobId, 'running'))) return;
    if ((await walk(job)) === 'stopped') {
      deps.log(`reparse ${jobId} stopped: the job was cancelled, or another run of it moved on`);
      return;
    }
    await store.reparseJobs.setState(jobId, 'done');
    const done = await store.reparseJobs.get(jobId);
    deps.log(`reparse ${jobId} done: ${JSON.stringify({ counts: done?.counts, fields: done?.fields })}`);
  }

  return async function processReparse(run: JobRun<ReparseJob>): Promise<void> {
    const { jobId } = run.data;
    const ran = await oneRunPerJob(jobId, () => runLocked(jobId));
    // The holder is alive (its session holds the lock) and walks the job to its end.
    if (!ran.ran) deps.log(`reparse ${jobId}: another replica is running this job; this run leaves it to that one`);
  };
}
