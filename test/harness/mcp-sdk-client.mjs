// Runs the MCP SDK's own Client (StreamableHTTPClientTransport) against a server, in a plain Node
// process. Tests use it through mcp-sdk-client.ts: under vitest the SDK's client cannot load in-process,
// because the workspace's `source` export condition also applies to node_modules and makes the SDK
// import eventsource-parser's TypeScript sources.
// Input (argv[2], JSON): { url, headers, steps: [{ op: 'listTools' | 'ping' | 'callTool' | 'createTask' | 'getTask' | 'waitTask'
// | 'taskResult' | 'cancelTask' | 'readResource' | 'listResourceTemplates', name?, arguments?, uri? ($task: the created task's id) }] }
// Output (stdout, JSON): one { ok: true, result } or { ok: false, error } per step.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';

const { url, headers, steps } = JSON.parse(process.argv[2]);
const out = [];
const client = new Client({ name: 'retail-test-client', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  out.push({ ok: true, result: { serverVersion: client.getServerVersion(), capabilities: client.getServerCapabilities() } });
} catch (err) {
  out.push({ ok: false, error: String(err?.message ?? err) });
}
// Task steps name the task the last createTask step created.
let taskId;
const tasks = client.experimental.tasks;
async function untilEnded() {
  for (let i = 0; i < 100; i++) {
    const task = await tasks.getTask(taskId);
    if (task.status !== 'working') return task;
    await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollInterval ?? 500, 500)));
  }
  throw new Error(`task ${taskId} still working`);
}
for (const step of out[0].ok ? steps : []) {
  try {
    if (step.op === 'createTask') {
      const created = await client.request({ method: 'tools/call', params: { name: step.name, arguments: step.arguments ?? {}, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      taskId = created.task.taskId;
      out.push({ ok: true, result: created });
    } else if (step.op === 'getTask') out.push({ ok: true, result: await tasks.getTask(step.taskId ?? taskId) });
    else if (step.op === 'waitTask') out.push({ ok: true, result: await untilEnded() });
    else if (step.op === 'taskResult') out.push({ ok: true, result: await tasks.getTaskResult(taskId, CallToolResultSchema) });
    else if (step.op === 'cancelTask') out.push({ ok: true, result: await tasks.cancelTask(taskId) });
    else if (step.op === 'readResource') out.push({ ok: true, result: await client.readResource({ uri: step.uri.replace('$task', taskId) }) });
    else if (step.op === 'listResourceTemplates') out.push({ ok: true, result: await client.listResourceTemplates() });
    else if (step.op === 'listTools') out.push({ ok: true, result: await client.listTools() });
    else if (step.op === 'ping') out.push({ ok: true, result: await client.ping() });
    else out.push({ ok: true, result: await client.callTool({ name: step.name, arguments: step.arguments ?? {} }) });
  } catch (err) {
    out.push({ ok: false, error: String(err?.message ?? err) });
  }
}
await client.close().catch(() => undefined);
process.stdout.write(JSON.stringify(out));
