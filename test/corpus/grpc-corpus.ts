import { create, ScalarType, type DescMessage, type Message } from '@bufbuild/protobuf';
import { type Client, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { ErrorDetailSchema, ErrorReason, RetailService, errorRow, renderData } from '@retail/contract';
import { type StartedCore, startCore } from '../harness/core.js';
import { RPC_OF_OPERATION } from '../replay/recorded-operations.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';
import type { ActualOutcome, CorpusCase } from './score.js';

/*
 * Runs corpus cases the way clients meet the service: the replay server serves the pages, a real
 * core fetches them through its upstream client (MARKETPLACE_ORIGIN) and answers over gRPC, and the
 * answer is rendered with the contract's wire renderer (or taken as the error it is).
 */

export { RPC_OF_OPERATION, SERVED_DOMAINS } from '../replay/recorded-operations.js';

/**
 * Builds the request message from a golden's REST query parameters, by the request descriptor:
 * enums by value name (`domain: "DE"`), 64-bit integers as bigint, booleans and numbers from strings,
 * comma lists for repeated fields. Unknown parameters are an error (the golden would be wrong).
 */
export function buildRequest<D extends DescMessage>(desc: D, params: Record<string, unknown>): Message {
  const init: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(params)) {
    const field = desc.fields.find((f) => f.jsonName === key || f.localName === key || f.name === key);
    if (!field) throw new Error(`${desc.typeName} has no parameter ${key}`);
    const one = (value: unknown): unknown => {
      if (field.enum) {
        const found = field.enum.values.find((v) => v.localName === String(value) || v.name === String(value));
        if (!found) throw new Error(`${key}: no enum value ${String(value)}`);
        return found.number;
      }
      const scalar = field.fieldKind === 'scalar' || field.fieldKind === 'list' ? field.scalar : undefined;
      if (scalar === ScalarType.INT64 || scalar === ScalarType.UINT64) return BigInt(String(value));
      if (scalar === ScalarType.BOOL) return value === true || value === 'true';
      if (scalar === ScalarType.DOUBLE || scalar === ScalarType.FLOAT || scalar === ScalarType.INT32) return Number(value);
      return String(value);
    };
    init[field.localName] = field.fieldKind === 'list'
      ? (Array.isArray(raw) ? raw : String(raw).split(',')).map(one)
      : one(raw);
  }
  return create(desc, init as never);
}

export interface CorpusService {
  readonly replay: ReplayServer;
  readonly core: StartedCore;
  readonly client: Client<typeof RetailService>;
  close(): Promise<void>;
}

/** Starts the replay server on `dirs` and a real core pointed at it. */
export async function startCorpusService(dirs: readonly string[], env: Record<string, string> = {}): Promise<CorpusService> {
  const replay = await createReplayServer({ corpusDirs: dirs });
  // Paginated reviews need a configured marketplace session; the replay server needs no real one.
  const session = env.REVIEWS_SESSION_COOKIE ?? 'session-id=replay';
  const core = await startCore({
    marketplaceOrigin: replay.origin,
    env: { UPSTREAM_TIMEOUT_MS: '20000', REVIEWS_SESSION_COOKIE: session, ...env },
  });
  const client = createClient(RetailService, createGrpcTransport({ baseUrl: core.baseUrl }));
  return {
    replay,
    core,
    client,
    close: async () => {
      await core.stop();
      await replay.close();
    },
  };
}

/** Calls the case's RPC over gRPC and returns the wire data or the error as a client sees it. */
export async function callCase(service: CorpusService, c: CorpusCase): Promise<ActualOutcome> {
  const methodName = RPC_OF_OPERATION[c.golden.operation];
  if (!methodName) throw new Error(`no RPC for corpus operation ${c.golden.operation}`);
  const method = RetailService.method[methodName];
  const request = buildRequest(method.input, (c.entry.request ?? c.golden.request));
  const call = (service.client as unknown as Record<string, (req: Message, opts: object) => Promise<Message>>)[methodName]!;
  try {
    const response = await call(request, { headers: { authorization: `Bearer ${service.core.token}` }, timeoutMs: 30_000 });
    return { data: renderData(method.output, response) };
  } catch (error) {
    if (!(error instanceof ConnectError)) throw error;
    const [detail] = error.findDetails(ErrorDetailSchema);
    if (!detail) return { error: { status: 500, message: error.rawMessage } };
    return { error: { status: errorRow(detail.reason).httpStatus, reason: ErrorReason[detail.reason], message: detail.message } };
  }
}
