// Runs the MCP SDK's own Client (StreamableHTTPClientTransport) against a server, in a plain Node
// process. Tests use it through mcp-sdk-client.ts: under vitest the SDK's client cannot load in-process,
// because the workspace's `source` export condition also applies to node_modules and makes the SDK
// import eventsource-parser's TypeScript sources.
// Input (argv[2], JSON): { url, headers, steps: [{ op: 'listTools' | 'ping' | 'callTool', name?, arguments? }] }
// Output (stdout, JSON): one { ok: true, result } or { ok: false, error } per step.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const { url, headers, steps } = JSON.parse(process.argv[2]);
const out = [];
const client = new Client({ name: 'retail-test-client', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  out.push({ ok: true, result: { serverVersion: client.getServerVersion(), capabilities: client.getServerCapabilities() } });
} catch (err) {
  out.push({ ok: false, error: String(err?.message ?? err) });
}
for (const step of out[0].ok ? steps : []) {
  try {
    if (step.op === 'listTools') out.push({ ok: true, result: await client.listTools() });
    else if (step.op === 'ping') out.push({ ok: true, result: await client.ping() });
    else out.push({ ok: true, result: await client.callTool({ name: step.name, arguments: step.arguments ?? {} }) });
  } catch (err) {
    out.push({ ok: false, error: String(err?.message ?? err) });
  }
}
await client.close().catch(() => undefined);
process.stdout.write(JSON.stringify(out));
