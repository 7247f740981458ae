/**
 * What the OpenAPI example collectors share: the shape of an operation's examples, where they are
 * collected from, a call to the demo that waits out its rate limit, and examples from a parameter's
 * own rules.
 */
import type { Parameter } from '@retail/gateway-shared';
import type { DemoCatalogue } from '../../app/src/demo-catalogue/model.js';
import type { Recording } from '../replay/server.js';

export interface OperationExample {
  /** An example value for every parameter, typed as the document types it. */
  readonly parameters: Record<string, unknown>;
  /** The parameters a working request sends (the happy path): a subset of `parameters`. */
  readonly request: Record<string, unknown>;
  /** The JSON body of a successful answer. */
  readonly response: unknown;
}

export type OpenApiExamples = Record<string, OperationExample>;

export interface ExampleSource {
  /** The demo's base URL and a key to call it with. */
  readonly baseUrl: string;
  readonly key: string;
  readonly catalogue: DemoCatalogue;
  readonly recordings: readonly Recording[];
}

/** A REST call that waits out the plan's rate limit (429 + Retry-After) instead of failing on it. */
export async function callDemo(url: string, key: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  for (;;) {
    const response = await fetch(url, { ...init, headers: { 'API-KEY': key, 'content-type': 'application/json', ...init.headers } });
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)));
      continue;
    }
    return { status: response.status, body: await response.json() };
  }
}

/** A query-string value as the document types the parameter. */
export function typed(p: Parameter, value: string): unknown {
  if (p.kind === 'integer' || p.kind === 'number') return Number(value);
  if (p.kind === 'boolean') return value === 'true';
  return value;
}

/** An example from the parameter's rules alone: its default, else its minimum, else its first value. */
export function fromRules(p: Parameter): unknown {
  if (p.defaultValue !== undefined) return typed(p, p.defaultValue);
  if (p.kind === 'boolean') return false;
  if (p.minimum !== undefined) return p.minimum;
  if (p.enumValues?.[0] !== undefined) return p.enumValues[0];
  return undefined;
}

/** Polls `read` until it gives a value (30 s at most). */
export async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 30_000; ;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
