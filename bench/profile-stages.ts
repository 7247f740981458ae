/**
 * The gateway's CPU per call by stage (issue 17): a V8 CPU profile of the benchmark's own process,
 * taken over the measured seconds only (node:inspector, nothing in the gateway's code: it costs
 * nothing when the benchmark does not ask for it), and each sample given to the stage of the
 * innermost stack frame that a rule below names (a builtin or library frame without a rule gives
 * its sample to the caller that has one). Used by bench/rest.ts and bench/graphql-mcp.ts with
 * BENCH_PROFILE=stages; `node --import tsx bench/profile-stages.ts file.cpuprofile [requests]`
 * summarizes a profile written by `--cpu-prof`.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A stage and what names it: a URL fragment, optionally with function names (any function when absent). */
interface Rule {
  readonly stage: string;
  readonly url?: string;
  readonly fn?: RegExp;
  /** Plumbing (events, streams, microtask queue): counts only when no other rule names a frame of the stack. */
  readonly generic?: true;
}

// Checked in order for each frame, innermost frame first (generic rules only when nothing else
// matches the stack). Specific functions before whole files.
const RULES: readonly Rule[] = [
  { stage: 'GC', fn: /^\(garbage collector\)$/ },
  { stage: 'idle', fn: /^\(idle\)$/ },
  // Collecting the profile itself (Profiler.stop runs in this process): not the gateway's work.
  { stage: 'profiler', url: 'node:inspector' },
  { stage: 'decode answer (fromBinary)', url: '@bufbuild/protobuf', fn: /^(fromBinary|readMessage|readField|readScalar|readListField|readMapEntry|readScalarLTString|readMessageField|string|bytes|uint32|int32|int64|double|float|bool|skip)$/ },
  { stage: 'encode request (toBinary)', url: '@bufbuild/protobuf', fn: /^(toBinary|writeFields|writeField|writeScalar|writeMessageField|writeListField|writeMapEntry|finish|fork|join|raw|string|tag|uint32|int32)$/ },
  { stage: 'protobuf (create, other)', url: '@bufbuild/protobuf' },
  { stage: 'render (wire JSON)', url: 'proto/src/wire' },
  { stage: 'core call (client)', url: 'core-client' },
  { stage: 'core call (client)', url: 'grpc-caller' },
  { stage: 'core call (client)', url: 'call-coalescer' },
  { stage: 'core call (client)', url: '@connectrpc' },
  { stage: 'core call (client)', url: '@grpc/grpc-js' },
  { stage: 'core call (node:http2)', url: 'node:internal/http2' },
  { stage: 'core call (node:http2)', url: 'node:http2' },
  { stage: 'access log', url: 'access-log' },
  { stage: 'access log', url: 'pino' },
  { stage: 'tracing + metrics', url: 'gateway-shared/src/tracing' },
  { stage: 'tracing + metrics', url: 'gateway-shared/src/metrics' },
  { stage: 'tracing + metrics', url: 'shared/src/tracing' },
  { stage: 'tracing + metrics', url: 'shared/src/metrics' },
  { stage: 'tracing + metrics', url: '@opentelemetry' },
  { stage: 'headers (metering, rate limit)', fn: /^(meteringHeaders|servedHeaders|refusalHeaders|rateLimitHeaders|combinedResponseInfo|responseInfo)$/ },
  { stage: 'admit', fn: /^(admitCall|admit|readCredentials|parse|ask|stateOf|rateLimitState|newHoldId|noteKeyId|earlyRefusal)$/, url: 'gateways/' },
  { stage: 'settle', fn: /^(settleHold|settle|utcDay|settled|trimUsage)$/, url: 'gateways/' },
  { stage: 'ledger (memory store)', url: 'metering/src/memory-store' },
  { stage: 'ledger (Redis client)', url: 'ioredis' },
  { stage: 'ledger (Redis client)', url: 'redis-parser' },
  { stage: 'ledger (Redis client)', url: 'metering/src/redis-store' },
  { stage: 'admit', url: 'metering/src' },
  { stage: 'parameter parsing', url: 'gateway-shared/src/parameters' },
  { stage: 'parameter parsing', url: 'shared/src/parameters' },
  { stage: 'parameter parsing', url: 'rest/src/rest-input' },
  { stage: 'parameter parsing', url: 'rest/src/query' },
  { stage: 'parameter parsing', url: 'proto/src/rule' },
  { stage: 'pipeline (bookkeeping)', url: 'shared/src/pipeline' },
  { stage: 'REST router', url: 'rest/src/' },
  { stage: 'GraphQL (Apollo, graphql-js)', url: 'graphql' },
  { stage: 'MCP (SDK, zod)', url: 'modelcontextprotocol' },
  { stage: 'MCP (SDK, zod)', url: 'zod' },
  { stage: 'MCP (SDK, zod)', url: 'mcp/src/' },
  { stage: 'express response (res.json/send, ETag)', url: 'express/lib/response' },
  { stage: 'express response (res.json/send, ETag)', url: 'etag' },
  { stage: 'express response (res.json/send, ETag)', url: 'fresh' },
  { stage: 'express response (res.json/send, ETag)', url: 'content-type' },
  { stage: 'express response (res.json/send, ETag)', url: 'node:_http_outgoing' },
  { stage: 'express routing and middleware', url: 'express' },
  { stage: 'express routing and middleware', url: '/router/' },
  { stage: 'express routing and middleware', url: 'path-to-regexp' },
  { stage: 'express routing and middleware', url: 'body-parser' },
  { stage: 'express routing and middleware', url: 'parseurl' },
  { stage: 'express routing and middleware', url: 'finalhandler' },
  { stage: 'express routing and middleware', url: 'on-finished' },
  { stage: 'HTTP server (parser, sockets)', url: 'node:_http' },
  { stage: 'sockets, streams, events', url: 'node:net', generic: true },
  { stage: 'sockets, streams, events', url: 'node:internal/stream_base_commons', generic: true },
  { stage: 'sockets, streams, events', url: 'node:internal/streams', generic: true },
  { stage: 'sockets, streams, events', url: 'node:events', generic: true },
  { stage: 'timers, promises, async hooks', url: 'node:internal/timers', generic: true },
  { stage: 'timers, promises, async hooks', url: 'node:internal/process/task_queues', generic: true },
  { stage: 'timers, promises, async hooks', url: 'node:internal/async_hooks', generic: true },
  { stage: 'native, unattributed', fn: /^\(program\)$/ },
];

function ruleOf(frame: ProfileNode['callFrame']): Rule | undefined {
  for (const rule of RULES) {
    if (rule.url !== undefined && !frame.url.includes(rule.url)) continue;
    if (rule.fn && !rule.fn.test(frame.functionName)) continue;
    return rule;
  }
  return undefined;
}

export interface StageRow {
  readonly stage: string;
  /** Share of the busy (non-idle) samples, in %. */
  readonly share: number;
  /** CPU per request in µs, when the request count is known (profiler overhead included). */
  readonly usPerRequest?: number;
}

/** The profile's busy time by stage, largest first; unattributed leaf functions are listed under "other: …". */
export function stageSummary(profile: CpuProfile, requests?: number): StageRow[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map<number, string>();
  const resolve = (leaf: number): string => {
    const known = stageOfNode.get(leaf);
    if (known) return known;
    let generic: string | undefined;
    let stage: string | undefined;
    for (let id: number | undefined = leaf; id !== undefined && !stage; id = parent.get(id)) {
      const rule = ruleOf(byId.get(id)!.callFrame);
      if (rule?.generic) generic ??= rule.stage;
      else if (rule) stage = rule.stage;
    }
    const frame = byId.get(leaf)!.callFrame;
    stage ??= generic ?? `other: ${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}`;
    stageOfNode.set(leaf, stage);
    return stage;
  };
  const time = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stage = resolve(id);
    time.set(stage, (time.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  time.delete('idle');
  time.delete('profiler');
  const busy = [...time.values()].reduce((a, b) => a + b, 0);
  return [...time]
    .sort((a, b) => b[1] - a[1])
    .map(([stage, us]) => ({
      stage,
      share: Number(((100 * us) / busy).toFixed(1)),
      ...(requests ? { usPerRequest: Number((us / requests).toFixed(1)) } : {}),
    }));
}

/** Starts profiling this process (sampling every `intervalUs`); `stop` returns the profile. */
export async function startProfile(intervalUs = 200): Promise<{ stop(): Promise<CpuProfile> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile as unknown as CpuProfile;
    },
  };
}

/** Prints a summary as a table (stderr, so the benchmark's JSON on stdout stays parseable). */
export function printStages(title: string, rows: readonly StageRow[], minShare = 0.5): void {
  console.error(`\n${title}`);
  for (const row of rows) {
    if (row.share < minShare) continue;
    console.error(`  ${row.share.toFixed(1).padStart(5)} %  ${row.usPerRequest !== undefined ? `${row.usPerRequest.toFixed(1).padStart(7)} µs  ` : ''}${row.stage}`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!) && process.argv[2]) {
  const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as CpuProfile;
  printStages(process.argv[2], stageSummary(profile, process.argv[3] ? Number(process.argv[3]) : undefined));
}
