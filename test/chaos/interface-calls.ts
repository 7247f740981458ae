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
  readonly body: unknown;
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
  return { status, succeeded: ok ? 1 : 0, chargedHeader: charged(headers), wellFormed: ok || isEnvelope(body, status), body };
}

export async function callGraphql(baseUrl: string, key: string, call: FixtureCall): Promise<CallOutcome> {
  const { status, headers, body } = await send(`${baseUrl}/api/graphql`, jsonPost(key, { query: call.graphql.query }));
  const answer = (body ?? {}) as { data?: Record<string, unknown> | null; errors?: unknown[]; extensions?: { unitsCharged?: number } };
  if (status !== 200) return { status, succeeded: 0, chargedHeader: charged(headers), wellFormed: isEnvelope(body, status), body };
  const errors = answer.errors ?? [];
  return {
    status,
    succeeded: call.graphql.succeeded(answer.data),
    chargedHeader: charged(headers),
    ...(answer.extensions?.unitsCharged !== undefined ? { chargedInBody: answer.extensions.unitsCharged } : {}),
    wellFormed: errors.length === 0 || isGraphqlFieldErrors(errors),
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
    body,
  };
}

export const CALLERS: Record<InterfaceName, (baseUrl: string, key: string, call: FixtureCall) => Promise<CallOutcome>> = {
  rest: callRest,
  graphql: callGraphql,
  mcp: callMcp,
};
