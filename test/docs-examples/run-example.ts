/**
 * Runs one documented call as a reader would paste it, against a running stack, and says what it
 * answered. Shell calls run in bash with the variables the pages tell the reader to set (the key, the
 * base URL, the service token, the gRPC addresses, the account), the pages' `http://127.0.0.1:8080`
 * pointed at the stack, and `<id>` after `/watches/` or `/jobs/` the id the page's earlier call
 * created; curl and grpcurl are the stand-ins in ./bin, which report each status. A GraphQL block is
 * posted to /api/graphql with the key. Besides HTTP statuses, an answer's own errors count: a GraphQL
 * error's code, an MCP tool result with isError.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { RunningStack } from '../../app/src/stack.js';
import type { DocExample } from './extract.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = resolve(import.meta.dirname, 'bin');

export interface ExampleOutcome {
  /** Every status the call met: HTTP numbers, `grpc:<Code>`, and codes of errors inside a 200 body. */
  readonly statuses: readonly (number | string)[];
  readonly exitCode: number;
  readonly output: string;
}

/**
 * What a page's earlier calls left for its later ones: the ids its `<id>` placeholders stand for, by
 * the collection in the path before them, and the shell variables it set from a call (`ID=$(curl …)`),
 * under `$NAME`.
 */
export type CreatedIds = Map<string, string>;

/** The statuses inside answers that arrive as 200: GraphQL errors, MCP tool errors (JSON or SSE). */
function statusesInBodies(stdout: string): number[] {
  const bodies = stdout.includes('data: ') ? [...stdout.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!) : [stdout];
  const found: number[] = [];
  for (const body of bodies) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      continue;
    }
    const value = parsed as { errors?: { extensions?: { code?: unknown } }[]; result?: { isError?: boolean; structuredContent?: { errors?: { code?: number }[] } } };
    for (const error of value.errors ?? []) if (typeof error.extensions?.code === 'number') found.push(error.extensions.code);
    if (value.result?.isError) found.push(value.result.structuredContent?.errors?.[0]?.code ?? 500);
  }
  return found;
}

/** Remembers what a call created, for the `<id>` of the calls after it. */
export function rememberCreated(stdout: string, ids: CreatedIds): void {
  const watch = /"retailWatch":\s*\{[^{}]*?"id":\s*"([^"]+)"/.exec(stdout);
  if (watch) ids.set('watches', watch[1]!);
  const job = /"retailJob":\s*\{[^{}]*?"id":\s*"([^"]+)"/.exec(stdout);
  if (job) ids.set('jobs', job[1]!);
}

export function environmentFor(stack: RunningStack, dir: string): Record<string, string> {
  return {
    PATH: `${BIN}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '',
    DOCS_EXAMPLE_DIR: dir,
    K: stack.devKey,
    KEY: stack.devKey,
    RETAIL_API_KEY: stack.devKey,
    RETAIL_BASE_URL: stack.url,
    B: stack.url,
    TOKEN: stack.serviceToken,
    CORE: stack.coreAddress,
    WATCHER: stack.watcherAddress ?? '',
    ACCOUNT: stack.devAccountId,
    LOG_LEVEL: 'silent',
  };
}

export function substitute(text: string, stack: RunningStack, ids: CreatedIds): string {
  return text
    .replaceAll('http://127.0.0.1:8080', stack.url)
    .replace(/\/(watches|jobs)\/<id>/g, (whole, collection: 'watches' | 'jobs') => {
      const id = ids.get(collection);
      if (!id) throw new Error(`${whole}: no earlier call on the page created one`);
      return `/${collection}/${id}`;
    });
}

export async function runShellExample(example: DocExample, stack: RunningStack, env: Record<string, string>, ids: CreatedIds): Promise<ExampleOutcome> {
  const command = substitute(example.text, stack, ids);
  const assigned = /^([A-Z_]+)=\$\(/.exec(command)?.[1];
  const report = assigned ? `\nprintf 'docs-example-variable %s\\n' "$${assigned}" >&2` : '';
  const variables = Object.fromEntries([...ids].filter(([name]) => name.startsWith('$')).map(([name, value]) => [name.slice(1), value]));
  const result = await promisify(execFile)('bash', ['-c', `set -o pipefail\n${command}${report}`], { cwd: ROOT, env: { ...env, ...variables }, timeout: 60_000, maxBuffer: 32 * 1024 * 1024 })
    .then(({ stdout, stderr }) => ({ stdout, stderr, exitCode: 0 }))
    .catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', exitCode: typeof error.code === 'number' ? error.code : 1 }));
  rememberCreated(result.stdout, ids);
  const value = /^docs-example-variable (.*)$/m.exec(result.stderr)?.[1];
  if (assigned && value) ids.set(`$${assigned}`, value);
  const reported = [...result.stderr.matchAll(/^docs-example-status (\S+)$/gm)].map((m) => (/^\d+$/.test(m[1]!) ? Number(m[1]) : m[1]!));
  return {
    statuses: [...reported, ...statusesInBodies(result.stdout)],
    exitCode: result.exitCode,
    output: `${result.stdout.slice(0, 600)}\n${result.stderr.replace(/^docs-example-status .*\n?/gm, '').slice(0, 600)}`,
  };
}

export async function runGraphqlExample(example: DocExample, stack: RunningStack, ids: CreatedIds): Promise<ExampleOutcome> {
  const response = await fetch(`${stack.url}/api/graphql`, {
    method: 'POST',
    headers: { 'API-KEY': stack.devKey, 'content-type': 'application/json' },
    body: JSON.stringify({ query: example.text }),
  });
  const text = await response.text();
  rememberCreated(text, ids);
  return { statuses: [response.status, ...statusesInBodies(text)], exitCode: 0, output: text.slice(0, 600) };
}

/** Whether the outcome is what the page promises: 2xx (gRPC OK), or a status it announced. */
export function unannounced(example: DocExample, outcome: ExampleOutcome): string[] {
  const problems: string[] = [];
  for (const status of outcome.statuses) {
    const ok = status === 'grpc:OK' || (typeof status === 'number' && ((status >= 200 && status < 300) || example.announced.includes(status)));
    if (!ok) problems.push(String(status));
  }
  if (outcome.exitCode !== 0 && problems.length === 0 && !example.announced.some((s) => s >= 400)) problems.push(`exit ${outcome.exitCode}`);
  return problems;
}
