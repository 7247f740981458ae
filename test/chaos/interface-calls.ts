/**
 * One metered call on each interface, reduced to what billing is checked with: the HTTP status,
 * how many operations succeeded (REST/MCP: 0 or 1; GraphQL: the operations whose data is filled), the units the answer says it charged (X-Units-Charged, and extensions / _meta where the
 * interface repeats it) and whether a failure carried the contract's error shape.
 */
import { isEnvelope, isGraphqlFieldErrors, mcpFailureIsWellFormed } from './envelope.js';
import type { FixtureCall } from './fixture-calls.js';

export type InterfaceName = 'rest' | 'graphql' | 'mcp';

export interface CallOutcome {
  readonly status: number;
  readonly succeeded: number;
  /** X-Units-Charged; NaN when absent. */
  readonly chargedHeader: number;
  /** extensions.unitsCharged (GraphQL) or result._meta.unitsCharged (MCP), when the body has one. */
  readonly chargedInBody?: number;
  /** False when a failure did not carry the contract's error shape. */
  readonly wellFormed: boolean;
  /** Error codes the answer reports: the status of a failed call, or those inside a GraphQL 200 / MCP isError result. */
  readonly errorCodes: readonly number[];
  readonly body: unknown;
}

/** Codes in the error entries of a body, wherever its interface puts them (envelope, GraphQL errors[], MCP error data / isError). */
function codesIn(body: unknown): number[] {
  const b = body as {
    errors?: { code?: unknown }[];
    error?: { data?: { errors?: { code?: unknown }[] } };
    result?: { structuredContent?: { errors?: { code?: unknown }[] } };
  } | undefined;
  const entries = b?.errors ?? b?.error?.data?.errors ?? b?.result?.structuredContent?.errors ?? [];
  return Array.isArray(entries) ? entries.map((e) => e?.code).filter((c): c is number => typeof c === 'number') : [];
}

function errorCodes(status: number, body: unknown): number[] {
  const inside = codesIn(body);
  return status === 200 ? inside : inside.length > 0 ? inside : [status];
}

/** A call that never got an HTTP answer (connection refused or reset). */
export const NO_ANSWER = 0;

async function send(url: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: unknown }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text, and a failure with such a body is not well-formed.
    }
    return { status: res.status, headers: res.headers, body };
  } catch {
    return { status: NO_ANSWER, headers: new Headers(), body: undefined };
  }
}

const charged = (headers: Headers) => Number(headers.get('x-units-charged') ?? Number.NaN);
const jsonPost = (key: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'API-KEY': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify(body),
});

export async function callRest(baseUrl: string, key: string, call: FixtureCall): Promise<CallOutcome> {
  const { status, headers, body } = await send(`${baseUrl}${call.rest}`, { headers: { 'API-KEY': key } });
  const ok = status === 200;
  return { status, succeeded: ok ? 1 : 0, chargedHeader: charged(headers), wellFormed: ok || isEnvelope(body, status), errorCodes: errorCodes(status, body), body };
}

export async function callGraphql(baseUrl: string, key: string, call: FixtureCall): Promise<CallOutcome> {
  const { status, headers, body } = await send(`${baseUrl}/api/graphql`, jsonPost(key, { query: call.graphql.query }));
  const answer = (body ?? {}) as { data?: Record<string, unknown> | null; errors?: unknown[]; extensions?: { unitsCharged?: number } };
  if (status !== 200) return { status, succeeded: 0, chargedHeader: charged(headers), wellFormed: isEnvelope(body, status), errorCodes: errorCodes(status, body), body };
  const errors = answer.errors ?? [];
  return {
    status,
    succeeded: call.graphql.succeeded(answer.data),
    chargedHeader: charged(headers),
    ...(answer.extensions?.unitsCharged !== undefined ? { chargedInBody: answer.extensions.unitsCharged } : {}),
    wellFormed: errors.length === 0 || isGraphqlFieldErrors(errors),
    errorCodes: errorCodes(status, body),
    body,
  };
}

export async function callMcp(baseUrl: string, key: string, call: FixtureCall, id = 1): Promise<CallOutcome> {
  const { status, headers, body } = await send(`${baseUrl}/api/mcp`, jsonPost(key, { jsonrpc: '2.0', id, method: 'tools/call', params: call.mcp }));
  const verdict = mcpFailureIsWellFormed(status, body);
  const meta = (body as { result?: { _meta?: { unitsCharged?: number } } } | undefined)?.result?._meta;
  return {
    status,
    succeeded: status === 200 && verdict === null ? 1 : 0,
    chargedHeader: charged(headers),
    ...(meta?.unitsCharged !== undefined ? { chargedInBody: meta.unitsCharged } : {}),
    wellFormed: verdict !== false,
    errorCodes: errorCodes(status, body),
    body,
  };
}

export const CALLERS: Record<InterfaceName, (baseUrl: string, key: string, call: FixtureCall) => Promise<CallOutcome>> = {
  rest: callRest,
  graphql: callGraphql,
  mcp: callMcp,
};
