/**
 * The settings every gateway deployment (rest, graphql, mcp) reads from the environment, parsed with
 * zod as the core parses its own (core/src/config.ts): a bad value stops the process with one line
 * per bad variable and no stack trace, instead of falling back to a default nobody asked for.
 */
import { blankToUndefined, EnvironmentError, environmentProblems } from '@retail/contract/environment';
import { z } from 'zod';
import { type CoreClientOptions, DEFAULT_BATCH_DEADLINE_MS } from './core-client.js';

export interface GatewaySettings {
  readonly port: number;
  readonly host: string;
  readonly core: CoreClientOptions;
  readonly corsOrigins: readonly string[];
}

/** A whole-number setting within bounds, with one message for every way it can be wrong (shared by the deployables' settings). */
export const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/**
 * CORE_COALESCE: `true` (the default) sends the lookups issued in one event-loop turn to the core
 * as one BatchLookup (core-client.ts, call-coalescer.ts); `false` sends every call unary.
 */
export const coalesceSetting = z
  .preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'))
  .transform((value) => value === 'true');

const GatewayEnvSchema = z.object({
  PORT: z.preprocess(blankToUndefined, wholeNumber(1, 65535).default(8080)),
  HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  CORE_ADDRESS: z.preprocess(blankToUndefined, z.string().regex(/^\S+:\d{1,5}$/, 'must be host:port').default('127.0.0.1:50051')),
  // Optional: without the watcher, watch operations answer 501 UNIMPLEMENTED and say why.
  WATCHER_ADDRESS: z.preprocess(blankToUndefined, z.string().regex(/^\S+:\d{1,5}$/, 'must be host:port').optional()),
  // Required: a gateway without it could never reach the core. Its value is never echoed.
  SERVICE_TOKEN: z.preprocess(blankToUndefined, z.string({ error: 'is required' })),
  CORE_DEADLINE_MS: z.preprocess(blankToUndefined, wholeNumber(1, 600_000).default(10_000)),
  CORE_BATCH_DEADLINE_MS: z.preprocess(blankToUndefined, wholeNumber(1, 600_000).default(DEFAULT_BATCH_DEADLINE_MS)),
  CORE_COALESCE: coalesceSetting,
  CORS_ORIGINS: z.preprocess(blankToUndefined, z.string().default('')),
});

export class GatewayConfigError extends EnvironmentError {}

/**
 * PORT (8080), HOST (0.0.0.0), CORE_ADDRESS (127.0.0.1:50051), WATCHER_ADDRESS (unset: no watches), SERVICE_TOKEN (required),
 * CORE_DEADLINE_MS (10000), CORE_BATCH_DEADLINE_MS (30000: a whole batch stream), CORE_COALESCE (true: one turn's lookups as
 * one BatchLookup), CORS_ORIGINS (comma list; CORS closed when unset). Throws
 * GatewayConfigError naming every bad variable.
 */
export function loadGatewaySettings(env: Readonly<Record<string, string | undefined>> = process.env): GatewaySettings {
  const parsed = GatewayEnvSchema.safeParse(env);
  if (!parsed.success) throw new GatewayConfigError('gateway', environmentProblems(parsed.error.issues));
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    core: { address: e.CORE_ADDRESS, serviceToken: e.SERVICE_TOKEN, deadlineMs: e.CORE_DEADLINE_MS, batchDeadlineMs: e.CORE_BATCH_DEADLINE_MS, coalesce: e.CORE_COALESCE, ...(e.WATCHER_ADDRESS ? { watcherAddress: e.WATCHER_ADDRESS } : {}) },
    corsOrigins: e.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
  };
}

/** A reading of settings for a deployment's main: a bad environment prints its problems and exits 2 (as the core does). */
export function settingsOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof GatewayConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

/** loadGatewaySettings for a deployment's main (settingsOrExit). */
export function readGatewaySettings(env: Readonly<Record<string, string | undefined>> = process.env): GatewaySettings {
  return settingsOrExit(() => loadGatewaySettings(env));
}

/**
 * An optional positive whole-number tuning knob (GRAPHQL_MAX_DEPTH, MCP_BODY_LIMIT_BYTES, ...):
 * undefined when unset, so the gateway's own default applies; a bad value stops the process like
 * the settings above.
 */
export function positiveSetting(value: string | undefined, name = 'setting'): number | undefined {
  const parsed = z.preprocess(blankToUndefined, wholeNumber(1, Number.MAX_SAFE_INTEGER).optional()).safeParse(value);
  if (parsed.success) return parsed.data;
  const error = new GatewayConfigError('gateway', [`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`]);
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
