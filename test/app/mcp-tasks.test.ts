/**
 * MCP tasks over bulk jobs on `npm start` (one process: the watcher's job system, the core reading
 * the replay server), driven by the official SDK's Client: a task-augmented retail_batch above its cap
 * is a job, polled to completion, its results read as resources page by page; a cancelled task is a
 * cancelled job whose unused units are released; a client without tasks gets today's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../app/src/stack.js';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';
import { type StepOutcome, runSdkClient } from '../harness/mcp-sdk-client.js';

let running: OneProcess;
let stack: RunningStack;
let key: Record<string, string>;

beforeAll(async () => {
  running = await startOneProcess({ DEV_UNITS: '500' });
  stack = running.stack;
  key = { 'API-KEY': stack.devKey };
}, 120_000);
afterAll(async () => {
  await running?.stop();
});

const rest = async <T>(path: string) => (await (await fetch(`${stack.url}${path}`, { headers: key })).json()) as T;
const balance = async () => (await rest<{ data: { balance: number } }>('/api/account')).data.balance;
const product = (asin: string) => ({ operation: 'product', params: { asin } });
const mcpUrl = () => `${stack.url}/api/mcp?toolsets=all`;

describe('MCP tasks on npm start', () => {
  it('runs a batch above the tool\'s cap as a task: created at once, polled to completion, results read as resources by cursor', async () => {
    const items = [...Array.from({ length: 11 }, () => product('B0FXTUS001')), product('B0NOTHERE1')];
    const [, listed, created, ended, result, first] = await runSdkClient(mcpUrl(), key, [
      { op: 'listTools' },
      { op: 'createTask', name: 'retail_batch', arguments: { items } },
      { op: 'waitTask' },
      { op: 'taskResult' },
      { op: 'readResource', uri: 'retail://jobs/$task/results?limit=5' },
    ]);
    const tools = listed?.ok ? listed.result.tools as Array<{ name: string; execution?: { taskSupport: string } }> : [];
    expect(tools.filter((t) => t.execution).map((t) => [t.name, t.execution!.taskSupport]).sort()).toEqual([['retail_batch', 'optional'], ['retail_job_create', 'optional']]);
    expect(created).toMatchObject({ ok: true, result: { task: { status: 'working', pollInterval: 2000 } } });
    // Running, it is kept at least the deployment's retention (7 days by default) from now: never null ("forever").
    const ttl = created?.ok ? created.result.task.ttl as number | null : null;
    expect(ttl).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(ttl).toBeLessThan(7 * 86_400_000 + 60_000);
    const taskId = created?.ok ? created.result.task.taskId as string : '';
    expect(ended).toMatchObject({ ok: true, result: { taskId, status: 'completed', statusMessage: 'DONE: 12 of 12 items done, 1 failed, 11 units charged' } });
    expect(result).toMatchObject({ ok: true, result: { content: [{ type: 'text' }, { type: 'resource_link', uri: `retail://jobs/${taskId}/results` }], structuredContent: { data: { retailJob: { id: taskId, status: 'DONE' } } } } });

    // Page by page: each page names the next one's URI.
    const nextUri = (page: StepOutcome): string | undefined => (page.ok ? page.result._meta?.nextUri : undefined);
    const pages = [first!];
    for (let uri = nextUri(first!); uri && pages.length < 6; uri = nextUri(pages.at(-1)!)) {
      const [, next] = await runSdkClient(mcpUrl(), key, [{ op: 'readResource', uri }]);
      pages.push(next!);
    }
    const entries = pages.flatMap((p) => (p.ok ? JSON.parse(p.result.contents[0].text).data.retailJobResults.results as Array<{ index: number; status: number }> : []));
    expect(pages.map((p) => (p.ok ? 'ok' : p.error))).toEqual(['ok', 'ok', 'ok']);
    expect(entries.map((e) => e.index)).toEqual([...Array(12).keys()]);
    expect(entries.map((e) => e.status)).toEqual([...Array(11).fill(200), 404]);
  }, 60_000);

  it('cancels a task: the job is cancelled and the units it did not use are released', async () => {
    const before = await balance();
    const items = Array.from({ length: 300 }, () => product('B0FXTUS001'));
    const [, created, cancelled, again] = await runSdkClient(mcpUrl(), key, [
      { op: 'createTask', name: 'retail_job_create', arguments: { items } },
      { op: 'cancelTask' },
      { op: 'cancelTask' },
    ]);
    expect(created).toMatchObject({ ok: true, result: { task: { status: 'working' } } });
    expect(cancelled).toMatchObject({ ok: true, result: { status: 'cancelled' } });
    expect(again).toMatchObject({ ok: false, error: expect.stringContaining('terminal status: cancelled') });
    const id = created?.ok ? created.result.task.taskId as string : '';
    // The job has ended once nothing runs any more (expiresAt set): then its holds are settled.
    let job = { unitsCharged: -1, done: 0, status: '', expiresAt: null as string | null };
    for (let i = 0; i < 60 && !job.expiresAt; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = (await rest<{ data: { retailJob: typeof job } }>(`/api/retail/jobs/${id}`)).data.retailJob;
    }
    expect(job.status).toBe('CANCELLED');
    expect(job.done).toBeLessThan(300);
    expect(await balance()).toBe(before - job.unitsCharged);
  }, 60_000);

  it('answers tasks/result once the job has ended, waiting for it as the specification asks', async () => {
    const [, created, result, task] = await runSdkClient(mcpUrl(), key, [
      { op: 'createTask', name: 'retail_job_create', arguments: { items: [product('B0FXTUS001'), product('B0FXTUS001')] } },
      { op: 'taskResult' },
      { op: 'getTask' },
    ]);
    expect(created).toMatchObject({ ok: true, result: { task: { status: 'working' } } });
    expect(result).toMatchObject({ ok: true, result: { structuredContent: { data: { retailJob: { status: 'DONE', done: 2, unitsCharged: 2 } } } } });
    expect(task).toMatchObject({ ok: true, result: { status: 'completed' } });
  }, 60_000);

  it('a client without tasks keeps today\'s answer; a tool that is no task refuses to be one; an unknown task or results page is not found', async () => {
    const [, plain, refused, unknown, noResource, templates, dryRunTask] = await runSdkClient(mcpUrl(), key, [
      { op: 'callTool', name: 'retail_job_create', arguments: { items: [product('B0FXTUS001')] } },
      { op: 'createTask', name: 'retail_product', arguments: { asin: 'B0FXTUS001' } },
      { op: 'getTask', taskId: '00000000-0000-4000-8000-000000000000' },
      { op: 'readResource', uri: 'retail://jobs/00000000-0000-4000-8000-000000000000/results' },
      { op: 'listResourceTemplates' },
      { op: 'createTask', name: 'retail_batch', arguments: { items: [product('B0FXTUS001')], dryRun: true } },
    ]);
    expect(dryRunTask).toMatchObject({ ok: false, error: expect.stringContaining('dryRun') });
    expect(unknown).toMatchObject({ ok: false, error: expect.stringContaining('Task not found: 00000000-0000-4000-8000-000000000000') });
    expect(noResource).toMatchObject({ ok: false, error: expect.stringContaining('Resource not found: retail://jobs/') });
    expect(templates).toMatchObject({ ok: true, result: { resourceTemplates: [{ uriTemplate: 'retail://jobs/{id}/results{?cursor,limit}' }] } });
    expect(plain).toMatchObject({ ok: true, result: { structuredContent: { data: { retailJob: { status: 'QUEUED', total: 1 } } }, _meta: { unitsCharged: 0 } } });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('does not run as a task') });
  }, 60_000);
});
