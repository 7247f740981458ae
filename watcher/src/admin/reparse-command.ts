/**
 * `npm run admin -- reparse`: queues a re-parse of archived pages (docs/page-archive.md, "Repairing
 * history after a parser fix") and prints its report when it ends; `reparse status ID` prints a
 * job's report. The job runs on the watcher's job system: with a queue Redis (QUEUE_REDIS_URL,
 * LEDGER_REDIS_URL or REDIS_URL, as the watcher reads them) a watcher replica takes it and this
 * command only waits (Ctrl-C leaves it running: `reparse status` finds it later); without one
 * (the one-process default) there is no replica to hand it to, so this command runs it itself on the
 * in-memory twin, calling the core at CORE_ADDRESS with SERVICE_TOKEN, REPARSE_CONCURRENCY pages at
 * once. A job over a marketplace and kind that already has one queued or running is refused (exit
 * 3, naming the active job; the database decides, store/reparse-jobs.ts): refused rather than
 * queued behind it, because the second would mostly skip what the first corrects, and an operator
 * who meant a different window learns now, not hours later. `reparse cancel ID` ends an active job.
 *
 * With `--watcher host:port` or WATCHER_ADDRESS (and SERVICE_TOKEN) every subcommand asks the running
 * watcher instead (reparse-remote.ts): it queues the job on its own job system, so an operator repairs
 * a running `npm start`, whose PGlite no second process may open. Same output and exit codes; exit 4
 * when the watcher does not answer.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createCoreClient } from '@retail/gateway-shared';
import { createJobSystemFromEnv, queueRedisUrl } from '../queue/index.js';
import { reparseConcurrencyFromEnv } from '../config.js';
import { CANCELLED_BY_OPERATOR, REPARSED_KINDS, startReparseJob, startReparseWorker } from '../reparse/index.js';
import { createWatchStore, openDatabase, storeSettingsFromEnv, type WatchStore } from '../store/index.js';
import type { ReparseJobDraft, ReparseJobRecord } from '../store/reparse-jobs.js';
import type { CliIo } from './pages-command.js';
import { runRemoteReparse } from './reparse-remote.js';
import { POLL_MS, reportOf } from './reparse-report.js';
import { EXIT, openWatcherLink, UsageError, watcherTargetOf } from './watcher-link.js';

export { refusalOf } from '../reparse/index.js';
export { reportOf } from './reparse-report.js';

export const REPARSE_USAGE = `usage: npm run --silent admin -- reparse --domain US --kind product --since RFC3339-TIME [--until RFC3339-TIME] [--force] [--no-wait] [--watcher HOST:PORT]
       npm run --silent admin -- reparse status JOB-ID [--watcher HOST:PORT]
       npm run --silent admin -- reparse cancel JOB-ID [--watcher HOST:PORT]
  reads the archived pages of a marketplace and kind fetched in [since, until) again with the core's
  current parser, corrects the history points that came from them (marked revised, the old values
  kept for audit, no event or webhook), skips pages already read by the current parser unless --force,
  and prints what it corrected; one job per marketplace and kind at a time (exit 3 while one is active)
  --watcher (or WATCHER_ADDRESS, with SERVICE_TOKEN): ask the running watcher (npm start's "gRPC watcher"
  and "Service token") instead of opening its database; exit 4 when it does not answer`;

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function timeArg(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--${name} must be an RFC 3339 time (2026-11-28T10:00:00Z), got ${JSON.stringify(value)}`);
  return at;
}

export function reparseDraftOf(argv: string[]): ReparseJobDraft & { readonly wait: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: { domain: { type: 'string' }, kind: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, force: { type: 'boolean' }, 'no-wait': { type: 'boolean' } },
  });
  if (!values.domain || !values.kind || !values.since) throw new UsageError('--domain, --kind and --since are required');
  if (!REPARSED_KINDS.includes(values.kind)) throw new UsageError(`--kind must be one of ${REPARSED_KINDS.join(', ')} (history comes from product pages), got ${JSON.stringify(values.kind)}`);
  if (!/^[A-Za-z]{2}$/.test(values.domain)) throw new UsageError(`--domain must be a marketplace code (US, DE, …), got ${JSON.stringify(values.domain)}`);
  const since = timeArg('since', values.since)!;
  const until = timeArg('until', values.until);
  if (until && until <= since) throw new UsageError('--until must be after --since');
  return { id: randomUUID(), domain: values.domain.toUpperCase(), kind: values.kind, since, ...(until ? { until } : {}), force: values.force ?? false, wait: !values['no-wait'] };
}

async function waitForEnd(store: WatchStore, id: string): Promise<ReparseJobRecord> {
  for (;;) {
    const job = await store.reparseJobs.get(id);
    if (!job) throw new Error(`reparse job ${id} vanished`);
    if (job.state === 'done' || job.state === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function runReparseCommand(commandArgv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof watcherTargetOf>;
  let draft: ReturnType<typeof reparseDraftOf> | undefined;
  let sub: 'status' | 'cancel' | undefined;
  let jobId: string | undefined;
  try {
    parsed = watcherTargetOf(commandArgv, env);
    const { argv } = parsed;
    [sub, jobId] = argv[0] === 'status' || argv[0] === 'cancel' ? [argv[0], argv[1]] : [undefined, undefined];
    if (sub && !jobId) throw new UsageError(`reparse ${sub} takes the job id`);
    if (sub && !JOB_ID.test(jobId!)) throw new UsageError(`reparse ${sub} takes the job id (a UUID, as \`reparse\` printed it), got ${JSON.stringify(jobId)}`);
    if (!sub) draft = reparseDraftOf(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n${REPARSE_USAGE}`);
    return EXIT.usage;
  }
  if (parsed.target) {
    const link = openWatcherLink(parsed.target);
    try {
      return await runRemoteReparse(link, sub ? { sub, jobId: jobId! } : { draft: draft! }, io);
    } finally {
      link.close();
    }
  }
  const db = await openDatabase(storeSettingsFromEnv(env));
  const store = createWatchStore(db);
  try {
    if (sub === 'cancel') return await cancel(store, jobId!, io);
    if (sub === 'status') {
      const job = await store.reparseJobs.get(jobId!);
      if (!job) {
        io.err(`no reparse job ${jobId}`);
        return EXIT.failed;
      }
      io.out(JSON.stringify(reportOf(job), null, 2));
      return EXIT.ok;
    }
    return await queueAndWait(store, draft!, env, io);
  } finally {
    await db.close();
  }
}

async function cancel(store: WatchStore, id: string, io: CliIo): Promise<number> {
  if (!(await store.reparseJobs.cancel(id, CANCELLED_BY_OPERATOR))) {
    const job = await store.reparseJobs.get(id);
    io.err(job ? `reparse job ${id} is already ${job.state}` : `no reparse job ${id}`);
    return EXIT.failed;
  }
  // Its run, if one is on it, stops at its next page (it writes nothing past the cancel).
  io.out(JSON.stringify(reportOf((await store.reparseJobs.get(id))!), null, 2));
  return EXIT.ok;
}

async function queueAndWait(store: WatchStore, draft: ReparseJobDraft & { readonly wait: boolean }, env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const local = !queueRedisUrl(env);
  if (local && !env.SERVICE_TOKEN) {
    io.err('no queue Redis: this command runs the job itself and needs the core (CORE_ADDRESS, default 127.0.0.1:50051) and SERVICE_TOKEN');
    return EXIT.usage;
  }
  let concurrency: number;
  try {
    concurrency = reparseConcurrencyFromEnv(env);
  } catch (error) {
    io.err((error as Error).message);
    return EXIT.usage;
  }
  const jobs = await createJobSystemFromEnv(env);
  const core = local ? createCoreClient({ address: env.CORE_ADDRESS || '127.0.0.1:50051', serviceToken: env.SERVICE_TOKEN!, deadlineMs: 60_000 }) : undefined;
  const worker = core ? startReparseWorker(jobs, { store, core, log: io.err, concurrency }) : undefined;
  try {
    const started = await startReparseJob(store, jobs, draft);
    if (!started.queued) {
      io.err(started.refusal);
      return EXIT.refused;
    }
    io.err(`reparse job ${draft.id} queued${local ? ` (run here: no queue Redis; ${concurrency} page(s) at once)` : ''}`);
    if (!draft.wait && !local) {
      io.out(draft.id);
      return EXIT.ok;
    }
    const job = await waitForEnd(store, draft.id);
    io.out(JSON.stringify(reportOf(job), null, 2));
    return job.state === 'done' ? EXIT.ok : EXIT.failed;
  } finally {
    await worker?.close();
    await jobs.close();
  }
}
