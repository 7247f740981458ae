/**
 * The MCP SDK's Client, driven in a child Node process (see mcp-sdk-client.mjs for why), for tests.
 * The first entry of the answer is the connection (initialize) itself.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ClientStep =
  | { op: 'listTools' } | { op: 'ping' } | { op: 'callTool'; name: string; arguments?: Record<string, unknown> }
  // MCP tasks: createTask is a task-augmented tools/call; the other task steps act on the task it created.
  | { op: 'createTask'; name: string; arguments?: Record<string, unknown> } | { op: 'waitTask' | 'taskResult' | 'cancelTask' | 'listResourceTemplates' }
  | { op: 'getTask'; taskId?: string }
  // `$task` in the URI stands for the created task's id.
  | { op: 'readResource'; uri: string };
export type StepOutcome = { ok: true; result: any } | { ok: false; error: string };

const SCRIPT = fileURLToPath(new URL('./mcp-sdk-client.mjs', import.meta.url));

export function runSdkClient(url: string, headers: Record<string, string>, steps: ClientStep[]): Promise<StepOutcome[]> {
  return new Promise((resolve, reject) => {
    // A clean environment for module resolution: no `source` condition, no tsx loader.
    const env = { ...process.env, NODE_OPTIONS: '' };
    execFile(process.execPath, [SCRIPT, JSON.stringify({ url, headers, steps })], { env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`MCP SDK client failed: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as StepOutcome[]);
    });
  });
}
