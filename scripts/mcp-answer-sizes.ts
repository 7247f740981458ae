/**
 * Measures what an MCP tool call answers, in bytes, on every request the demo's recordings answer
 * (the project's fixtures, and the real pages of the corpus when RETAIL_CORPUS points at one), and
 * writes the table into docs/mcp.md (between its markers) and the medians the tool descriptions
 * quote into gateways/mcp/src/answer-sizes.ts. `test/corpus/mcp-answer-sizes.test.ts` fails when
 * either is stale.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx scripts/mcp-answer-sizes.ts
 *
 * Before: the answer main gave until issue 26, the REST 200 body twice (structuredContent and a text
 * block of the same JSON), rebuilt from this stack's REST answer to the same request (REST still
 * answers the full record). After: this stack's MCP answer. Both without `_meta` (the request id and
 * the balance are not the answer). "Record" is the structuredContent alone, one copy of the data.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { API_REGISTRY, type Operation } from '@retail/gateway-shared';
import { startDemoStack } from '../app/src/demo-stack.js';

const root = resolve(import.meta.dirname, '..');
export const MCP_DOC = resolve(root, 'docs/mcp.md');
export const SIZES_MODULE = resolve(root, 'gateways/mcp/src/answer-sizes.ts');
const BEGIN = '<!-- answer-sizes:begin (scripts/mcp-answer-sizes.ts) -->';
const END = '<!-- answer-sizes:end -->';

export interface ToolSizes {
  readonly tool: string;
  readonly calls: number;
  readonly before: readonly number[];
  readonly after: readonly number[];
  readonly record: readonly number[];
}

/** A catalogue query (every value a string) as the tool's JSON arguments. */
function argumentsOf(op: Operation, query: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => {
    const p = op.parameters.find((x) => x.name === name);
    if (p?.kind === 'integer' || p?.kind === 'number') return [name, Number(value)];
    if (p?.kind === 'boolean') return [name, value === 'true'];
    if (p?.kind.endsWith('-list')) return [name, value.split(',')];
    return [name, value];
  }));
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Runs every catalogued request over REST and MCP on the demo stack. */
export async function measureAnswerSizes(env: NodeJS.ProcessEnv = process.env): Promise<ToolSizes[]> {
  // Free ports and a data directory of its own: the measurement runs beside tests and a running demo,
  // and the demo keeps its development account in its data directory (a shared one would be spent).
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-answer-sizes-'));
  const demo = await startDemoStack({ ...env, PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'silent', WATCHER_DATA_DIR: dataDir });
  try {
    const byName = new Map(API_REGISTRY.map((op) => [op.name, op]));
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'API-KEY': demo.stack.devKey };
    const sizes = new Map<string, { before: number[]; after: number[]; record: number[] }>();
    let id = 0;
    for (const entry of demo.catalogue.entries) {
      const op = byName.get(entry.operation);
      if (!op) continue;
      const rest = await fetch(`${demo.stack.url}${entry.path}?${new URLSearchParams(entry.query)}`, { headers: { 'API-KEY': demo.stack.devKey } });
      const full = (await rest.json()) as Record<string, unknown>;
      const call = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: op.mcpTool, arguments: argumentsOf(op, entry.query) } };
      const mcp = (await (await fetch(`${demo.stack.url}/api/mcp`, { method: 'POST', headers, body: JSON.stringify(call) })).json()) as { result?: Record<string, unknown> };
      if (rest.status !== 200 || !mcp.result || mcp.result.isError) throw new Error(`${op.mcpTool} ${JSON.stringify(entry.query)}: no answer (REST ${rest.status})`);
      const row = sizes.get(op.mcpTool) ?? { before: [], after: [], record: [] };
      row.before.push(bytes({ content: [{ type: 'text', text: JSON.stringify(full) }], structuredContent: full }));
      row.after.push(bytes({ ...mcp.result, _meta: undefined }));
      row.record.push(bytes(mcp.result.structuredContent));
      sizes.set(op.mcpTool, row);
    }
    return [...sizes].map(([tool, s]) => ({ tool, calls: s.after.length, ...s }));
  } finally {
    await demo.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const largest = (values: readonly number[]) => Math.max(...values);
const n = (value: number) => value.toLocaleString('en-US');

export function renderSizesTable(sizes: readonly ToolSizes[]): string {
  const lines = [
    '| Tool | Calls | Before: median | Before: largest | After: median | After: largest | Record: median | Record: largest |',
    '|---|---|---|---|---|---|---|---|',
    ...sizes.map((s) => `| \`${s.tool}\` | ${s.calls} | ${n(median(s.before))} | ${n(largest(s.before))} | ${n(median(s.after))} | ${n(largest(s.after))} | ${n(median(s.record))} | ${n(largest(s.record))} |`),
  ];
  return lines.join('\n');
}

/** `doc` with the table between its markers replaced. */
export function withSizesTable(doc: string, table: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/mcp.md has no ${BEGIN} … ${END} markers`);
  return `${doc.slice(0, start + BEGIN.length)}\n${table}\n${doc.slice(end)}`;
}

export function renderSizesModule(sizes: readonly ToolSizes[]): string {
  const rows = sizes.map((s) => `  ${s.tool}: { median: ${median(s.record)}, largest: ${largest(s.record)} },`);
  return [
    '// Generated by scripts/mcp-answer-sizes.ts from the demo\'s recordings (fixtures and corpus): do not edit.',
    '/** Bytes of each lookup tool\'s default record (structuredContent) on the measured pages, for the tool descriptions. */',
    'export const ANSWER_SIZES: Readonly<Record<string, { readonly median: number; readonly largest: number }>> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = await measureAnswerSizes();
  writeFileSync(MCP_DOC, withSizesTable(readFileSync(MCP_DOC, 'utf8'), renderSizesTable(sizes)));
  writeFileSync(SIZES_MODULE, renderSizesModule(sizes));
  console.log(renderSizesTable(sizes));
  process.exit(0);
}
