/**
 * The gateway → core gRPC call alone, several clients against the same core in the same run: the
 * real core (grpc-js server, token check, validation, spans, logging) in its own process answering
 * GetProduct from memory (bench/stub-core-process.ts), called in a loop by
 *   - gateway: the gateways' core client (gateways/shared createCoreClient: grpc-js with its
 *     metadata, deadline, signal and span); gateway+coalesce: the same with CORE_COALESCE on,
 *     each turn's calls as one BatchLookup (its average batch size printed too),
 *   - connect[+option…]: a Connect client (createGrpcTransport), bare or with some of the settings
 *     the gateways' client had while it was Connect (see below), e.g.
 *     connect+nocomp+nodelay+timeout+signal+interceptor+trace,
 *   - grpcjs[+option…]: a @grpc/grpc-js client over the same service definition,
 *   - http2: the call written by hand over node:http2 with nothing around it (the floor).
 * Prints calls/s, latency (p50, p99) and the CPU time per call of the client's process and of the
 * core's process, for each client at the given concurrency.
 *
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx bench/grpc-call.ts
 *   BENCH_SECONDS (default 5), BENCH_CONCURRENCY (default 10), BENCH_ASIN (default B01GAWQSFW),
 *   BENCH_CLIENTS (comma list; default gateway,connect,grpcjs,http2),
 *   BENCH_ROUNDS (default 1: the clients run one after the other this many times, and each reports
 *   its median round), BENCH_RECORD (a JSON file holding the record; written by the first run),
 *   CORE_NODE_OPTIONS (extra node flags for the core process, e.g. --cpu-prof)
 */
import net from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import { type Message, create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import { RetailService, renderData } from '@retail/contract';
import { grpcServiceDefinition } from '@retail/contract/grpc-service-definition';
import '../core/src/grpc/text-encoding.js'; // the core's string encoding, as before this moved to the contract
import { createCoreClient, registryOperation } from '@retail/gateway-shared';
import { traceCoreCall } from '@retail/gateway-shared/tracing';
import { SERVICE_TOKEN, startStack } from '../test/harness/stack.js';
import { processCpuUs, startStubCoreProcess } from './stub-core.js';
import { withCoalescing } from './coalescing.js';

const seconds = Number(process.env.BENCH_SECONDS) || 5;
const concurrency = Number(process.env.BENCH_CONCURRENCY) || 10;
const asin = process.env.BENCH_ASIN || 'B01GAWQSFW';
const rounds = Number(process.env.BENCH_ROUNDS) || 1;
const clients = (process.env.BENCH_CLIENTS || 'gateway,connect,grpcjs,http2').split(',');
const op = registryOperation('GetProduct');

// The record as the real core renders it (replay server behind it), or as saved by an earlier run
// (BENCH_RECORD: a JSON file; written when absent).
let record: unknown;
const saved = process.env.BENCH_RECORD;
if (saved && existsSync(saved)) {
  record = JSON.parse(readFileSync(saved, 'utf8'));
} else {
  const stack = await startStack({ mounts: [] });
  try {
    const { response } = await stack.core.callOperation(op, { asin }, { requestId: 'bench-record' });
    record = renderData(op.response, response).retailProduct;
  } finally {
    await stack.close();
  }
  if (saved) writeFileSync(saved, JSON.stringify(record));
}
const core = await startStubCoreProcess(record);
const { address } = core;

interface Result {
  client: string;
  callsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU time (user + system) per call of this process (the client) and of the core's process, in µs. */
  clientCpuUsPerCall: number;
  coreCpuUsPerCall?: number;
  /** gateway+coalesce: calls per BatchLookup, warm-up included. */
  averageBatchSize?: number;
  errors: number;
}

async function loop(client: string, call: () => Promise<unknown>): Promise<Result> {
  // Warm-up (connection, JIT of both processes): a second at the same concurrency, not counted.
  const warmUntil = performance.now() + 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < warmUntil) await call().catch(() => undefined);
  }));
  const times: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const coreBefore = processCpuUs(core.pid);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await call();
        } catch {
          errors++;
        }
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const coreAfter = processCpuUs(core.pid);
  times.sort((a, b) => a - b);
  const pct = (p: number) => Number(times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2));
  return {
    client,
    callsPerSecond: Math.round(times.length / elapsed),
    p50: pct(0.5),
    p99: pct(0.99),
    clientCpuUsPerCall: Math.round((cpu.user + cpu.system) / times.length),
    ...(coreBefore !== undefined && coreAfter !== undefined ? { coreCpuUsPerCall: Math.round((coreAfter - coreBefore) / times.length) } : {}),
    errors,
  };
}

const results: Result[] = [];
const request = create(op.request, { asin });
try {
  for (let round = 0; round < rounds; round++) for (const name of clients) {
    if (name === 'gateway' || name === 'gateway+coalesce') {
      // gateway+coalesce: the same client with CORE_COALESCE on (one turn's calls as one BatchLookup).
      const coalesce = name === 'gateway+coalesce';
      const core = createCoreClient({ address, serviceToken: SERVICE_TOKEN, coalesce });
      let n = 0;
      const { coalescing, ...result } = await withCoalescing(core, () => loop(`gateways/shared createCoreClient (grpc-js)${coalesce ? ', coalescing' : ''}`, () => core.callOperation(op, { asin }, { requestId: `bench-${n++}` })));
      results.push(coalescing ? { ...result, averageBatchSize: coalescing.averageBatchSize } : result);
    } else if (name === 'connect' || name.startsWith('connect+')) {
      // connect+<option>+…: the bare Connect client with some of the gateway client's settings, to
      // find which of them costs: timeout (per-call timeoutMs), signal (per-call AbortSignal),
      // nocomp (acceptCompression: []), nodelay (TCP_NODELAY socket), interceptor (headers set by an
      // interceptor), trace (the call inside traceCoreCall's span).
      const options = new Set(name.split('+').slice(1));
      const transport = createGrpcTransport({
        baseUrl: `http://${address}`,
        ...(options.has('nocomp') ? { acceptCompression: [] } : {}),
        ...(options.has('nodelay')
          ? { nodeOptions: { createConnection: (authority: URL) => net.connect({ host: authority.hostname, port: Number(authority.port), noDelay: true }) } }
          : {}),
        ...(options.has('interceptor')
          ? { interceptors: [(next: (req: { header: Headers }) => Promise<unknown>) => (req: { header: Headers }) => (req.header.set('authorization', `Bearer ${SERVICE_TOKEN}`), next(req))] as never }
          : {}),
      });
      const client = createClient(RetailService, transport);
      const headers = { authorization: `Bearer ${SERVICE_TOKEN}`, 'x-request-id': 'bench' };
      const call = () =>
        client.getProduct(request as never, {
          headers,
          ...(options.has('timeout') ? { timeoutMs: 10_000 } : {}),
          ...(options.has('signal') ? { signal: new AbortController().signal } : {}),
        });
      results.push(await loop(`Connect createGrpcTransport, ${options.size ? [...options].join(' + ') : 'defaults'}`, options.has('trace') ? () => traceCoreCall(RetailService.method.getProduct, call) : call));
    } else if (name === 'http2') {
      // The floor: a unary gRPC call by hand over node:http2 (one session), nothing around it.
      const session = http2.connect(`http://${address}`);
      session.on('error', () => {});
      const method = RetailService.method.getProduct;
      const bytes = toBinary(method.input, request as never);
      const frame = Buffer.alloc(5 + bytes.length);
      frame.writeUInt32BE(bytes.length, 1);
      frame.set(bytes, 5);
      const path = `/${RetailService.typeName}/${method.name}`;
      results.push(
        await loop('node:http2 by hand, nothing around it', () =>
          new Promise((resolve, reject) => {
            const stream = session.request({
              ':method': 'POST',
              ':path': path,
              'content-type': 'application/grpc',
              te: 'trailers',
              authorization: `Bearer ${SERVICE_TOKEN}`,
              'x-request-id': 'bench',
              'grpc-timeout': '10000m',
            });
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('error', reject);
            stream.on('trailers', (trailers) => {
              if (trailers['grpc-status'] !== '0') return reject(new Error(String(trailers['grpc-message'])));
              const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
              resolve(fromBinary(method.output, body.subarray(5)));
            });
            stream.end(frame);
          }),
        ),
      );
      session.close();
    } else if (name === 'grpcjs' || name.startsWith('grpcjs+')) {
      // grpcjs+<option>+…: deadline (a deadline per call), requestid (a second metadata entry),
      // options (the gateway client's channel options).
      const options = new Set(name.split('+').slice(1));
      const Client = grpc.makeGenericClientConstructor(grpcServiceDefinition(RetailService), 'RetailService');
      const channelOptions = options.has('options') ? { 'grpc.keepalive_time_ms': 30_000, 'grpc.keepalive_permit_without_calls': 1, 'grpc.enable_channelz': 0 } : {};
      const client = new Client(address, grpc.credentials.createInsecure(), channelOptions) as unknown as Record<
        string,
        (req: Message, md: grpc.Metadata, options: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: Message) => void) => void
      >;
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${SERVICE_TOKEN}`);
      if (options.has('requestid')) metadata.set('x-request-id', 'bench');
      const getProduct = client.getProduct!.bind(client);
      const label = `@grpc/grpc-js client${options.size ? `, ${[...options].join(' + ')}` : ''}`;
      results.push(
        await loop(label, () =>
          new Promise((resolve, reject) =>
            getProduct(request, metadata, options.has('deadline') ? { deadline: Date.now() + 10_000 } : {}, (err, res) => (err ? reject(err) : resolve(res))),
          ),
        ),
      );
      (client as unknown as grpc.Client).close();
    }
  }
} finally {
  await core.stop();
}
/** Each client's median round (by calls/s), with the spread of calls/s over the rounds. */
const byClient = new Map<string, Result[]>();
for (const r of results) byClient.set(r.client, [...(byClient.get(r.client) ?? []), r]);
const medians = [...byClient.values()].map((rs) => {
  const sorted = [...rs].sort((a, b) => a.callsPerSecond - b.callsPerSecond);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const cpu = [...rs].map((r) => r.clientCpuUsPerCall).sort((a, b) => a - b)[Math.floor(rs.length / 2)]!;
  return { ...median, clientCpuUsPerCall: cpu, ...(rs.length > 1 ? { callsPerSecondRange: [sorted[0]!.callsPerSecond, sorted.at(-1)!.callsPerSecond] } : {}) };
});
console.log(JSON.stringify({ when: new Date().toISOString(), seconds, concurrency, rounds, results: medians }, null, 2));
