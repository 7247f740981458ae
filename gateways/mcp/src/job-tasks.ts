/**
 * MCP tasks (specification 2025-11-25) over bulk jobs: a task-augmented `retail_job_create` (or
 * `retail_batch`, which then takes more than its cap) creates a job and answers the task at once;
 * `tasks/get`, `tasks/list`, `tasks/result` and `tasks/cancel` read and cancel that job.
 *
 * The task id IS the job id, and every task method is a call of the watcher's JobService through the
 * shared pipeline (key, scope, rate limit; free), so the gateway keeps no task state: a task survives
 * a gateway restart and any replica answers it. That is why the SDK's TaskStore is not used: the SDK
 * would call a store outside the pooled Server's request context (server.ts lends a Server to one
 * request at a time, and a store's methods carry no key), so these handlers run inside it instead and
 * the job system is the store.
 */
import { type CallToolResult, type CreateTaskResult, type ReadResourceResult, ErrorCode, type GetTaskResult, McpError, type Task } from '@modelcontextprotocol/sdk/types.js';
import { type CallResult, type CoreClient, type Operation, runMeteredCall } from '@retail/gateway-shared';
import type { HeaderBag, Meter } from '@retail/metering/api';
import type { WireObject } from '@retail/contract';
import { envelope, isRequestLevel, refusalError, type RequestLevelError } from './rpc-errors.js';
import { operationOfTool } from './tools.js';
import { parseResultsUri, resultsPage, resultsUri } from './job-resources.js';
import { compactRecord } from './compact-record.js';

const WHOLE_LISTS = { limit: Infinity, offset: 0 } as const;

export interface TaskContext {
  readonly core: CoreClient;
  readonly meter: Meter;
  readonly headers: HeaderBag;
  onRefusal(error: RequestLevelError): void;
}

/** How often a client should ask, and how often a waiting `tasks/result` reads the job (each read a free call counted by the rate limit). */
export const TASK_POLL_MS = 2_000;

const STATUS: Record<string, Task['status']> = { QUEUED: 'working', RUNNING: 'working', DONE: 'completed', CANCELLED: 'cancelled', FAILED: 'failed' };

interface WireJob {
  id: string; status: string; total: number; done: number; failed: number; unitsCharged: number; createdAt: string;
  finishedAt?: string | null; expiresAt?: string | null; stopReason?: string | null; retentionSeconds?: number;
}

/**
 * The task's ttl (ms from its creation): once the job has ended, until its expiry; while it runs, the
 * least it will be kept, since it ends no sooner than now and is kept its retention after that (the
 * specification's null would say "kept forever"). Null only from a watcher that does not say its retention.
 */
function ttlOf(job: WireJob, now: number): number | null {
  const created = Date.parse(job.createdAt);
  if (job.expiresAt) return Date.parse(job.expiresAt) - created;
  return job.retentionSeconds === undefined ? null : Math.max(0, now - created) + job.retentionSeconds * 1000;
}

/** A job as a task. The job records no update time: its end, else its creation, is the last change of status. */
export function taskOf(job: WireJob, now = Date.now()): Task {
  const progress = `${job.done} of ${job.total} items done, ${job.failed} failed, ${job.unitsCharged} units charged`;
  return {
    taskId: job.id,
    status: STATUS[job.status] ?? 'working',
    statusMessage: `${job.status}${job.stopReason ? ` (${job.stopReason})` : ''}: ${progress}`,
    createdAt: job.createdAt,
    lastUpdatedAt: job.finishedAt ?? job.createdAt,
    ttl: ttlOf(job, now),
    pollInterval: TASK_POLL_MS,
  };
}

const op = (tool: string): Operation => {
  const found = operationOfTool(tool);
  if (!found) throw new Error(`${tool} is not in the registry`);
  return found;
};

/** One JobService call through the shared pipeline; a refusal is thrown (request-level: its HTTP status follows). */
async function jobCall(ctx: TaskContext, tool: string, params: Record<string, unknown>, signal?: AbortSignal, notFound = `Task not found: ${String(params.id)}`): Promise<CallResult & { ok: true }> {
  const result = await runMeteredCall({ core: ctx.core, meter: ctx.meter }, { op: op(tool), params, style: 'mcp', headers: ctx.headers, ...(signal ? { signal } : {}) });
  if (result.ok) return result;
  if (isRequestLevel(result.status, result.reason)) {
    const refusal = refusalError(result);
    ctx.onRefusal(refusal);
    throw refusal;
  }
  // Another account's job, an unknown or expired one: the task (or resource) is not found, as the SDK says it.
  const message = result.status === 404 ? notFound : result.errors.map((e) => e.message).join('; ');
  throw new McpError(ErrorCode.InvalidParams, message, envelope(result.errors));
}

const jobOf = (data: WireObject, root: string) => data[root] as unknown as WireJob;

/** A task-augmented call of a task tool: the job is created (items as `retail_job_create` takes them) and its task answered at once. */
export async function createJobTask(ctx: TaskContext, args: Record<string, unknown>): Promise<CreateTaskResult> {
  // A batch as a task is a job of the same items: the batch's cap is for answers in the context, not for
  // work done later. Its arguments are the job's (`label`, `webhook` too); a `dryRun` is refused by name.
  const created = await jobCall(ctx, 'retail_job_create', args);
  return { task: taskOf(jobOf(created.data, 'retailJob')) };
}

async function readJob(ctx: TaskContext, taskId: string, signal?: AbortSignal): Promise<WireObject> {
  return (await jobCall(ctx, 'retail_job_get', { id: taskId }, signal)).data;
}

export async function getJobTask(ctx: TaskContext, taskId: string, signal?: AbortSignal): Promise<GetTaskResult> {
  return taskOf(jobOf(await readJob(ctx, taskId, signal), 'retailJob'));
}

/** tasks/cancel: the job's CancelJob (items not started never run and their units are released: docs/jobs.md). */
export async function cancelJobTask(ctx: TaskContext, taskId: string): Promise<GetTaskResult> {
  const task = await getJobTask(ctx, taskId);
  if (task.status !== 'working') throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${task.status}`);
  return taskOf(jobOf((await jobCall(ctx, 'retail_job_cancel', { id: taskId })).data, 'retailJob'));
}

export async function listJobTasks(ctx: TaskContext, cursor: string | undefined): Promise<{ tasks: Task[]; nextCursor?: string }> {
  const page = (await jobCall(ctx, 'retail_job_list', cursor ? { cursor } : {})).data.retailJobs as unknown as { jobs: WireJob[]; nextCursor?: string | null };
  return { tasks: page.jobs.map(taskOf), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

const sleep = (ms: number, signal: AbortSignal | undefined) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); reject(new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled')); }, { once: true });
});

/**
 * tasks/result: waits (as the specification asks) until the job has ended, then answers a link to its
 * results, readable as MCP resources page by page (job-resources.ts), and the job in structuredContent.
 */
export async function jobTaskResult(ctx: TaskContext, taskId: string, signal?: AbortSignal): Promise<CallToolResult> {
  let data = await readJob(ctx, taskId, signal);
  while (taskOf(jobOf(data, 'retailJob')).status === 'working') {
    await sleep(TASK_POLL_MS, signal);
    data = await readJob(ctx, taskId, signal);
  }
  const task = taskOf(jobOf(data, 'retailJob'));
  const uri = resultsUri(taskId);
  return {
    content: [
      { type: 'text', text: `Job ${taskId} ${task.statusMessage}. Its results: resources/read ${uri} (a page; each page names the next).` },
      { type: 'resource_link', uri, name: `job ${taskId} results`, mimeType: 'application/json', description: 'The job\'s results in item order, one page per read.' },
    ],
    // The job as retail_job_get answers it (compact), which both task tools' outputSchema describe.
    structuredContent: { data: compactRecord(op('retail_job_get').response, data, WHOLE_LISTS).record },
    ...(task.status === 'failed' ? { isError: true } : {}),
    _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
  };
}

/** resources/read of a job's results page (job-resources.ts); another account's job or an unknown URI is not found. */
export async function readJobResults(ctx: TaskContext, uri: string): Promise<ReadResourceResult> {
  const named = parseResultsUri(uri);
  if (!named) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri} (job results are retail://jobs/{id}/results)`);
  const results = op('retail_job_results');
  const data = (await jobCall(ctx, 'retail_job_results', { id: named.id, ...(named.cursor ? { cursor: named.cursor } : {}), ...(named.limit ? { limit: Number(named.limit) } : {}) }, undefined, `Resource not found: ${uri}`)).data;
  const page = compactRecord(results.response, data, WHOLE_LISTS).record.retailJobResults as { nextCursor?: string } & Record<string, unknown>;
  return resultsPage(uri, named, page);
}
