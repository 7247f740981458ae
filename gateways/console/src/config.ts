/**
 * The console deployment's settings, read once from the environment (names fixed in the docs) with
 * zod, as the core and the gateways read theirs: a bad value is one line naming the variable.
 */
import { randomBytes } from 'node:crypto';
import { blankToUndefined, EnvironmentError, environmentProblems } from '@retail/contract/environment';
import { z } from 'zod';
import { SIGNUP_MODES, type SignupMode } from './context.js';

export interface ConsoleConfig {
  readonly host: string;
  readonly port: number;
  /** The ledger Redis (users, sessions and invites live beside the metering keys); memory when absent. */
  readonly redisUrl?: string;
  readonly signupMode: SignupMode;
  readonly sessionSecret: string;
  /** True when no secret was configured and a random one was made (sessions die with the process). */
  readonly sessionSecretGenerated: boolean;
  readonly secureCookies: boolean;
  readonly invites: readonly string[];
  /** The watcher's gRPC address and the service token, for the Watches page; absent: no Watches view. */
  readonly watcher?: { readonly address: string; readonly serviceToken: string };
}

const lowerCase = (value: unknown) => (typeof value === 'string' ? blankToUndefined(value.trim().toLowerCase()) : value);

const ConsoleEnvSchema = z.object({
  HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  PORT: z.preprocess(blankToUndefined, z.coerce.number({ error: 'must be a port number' }).int('must be a port number').min(0, 'must be a port number').max(65535, 'must be a port number').default(8080)),
  CONSOLE_SIGNUP_MODE: z.preprocess(lowerCase, z.enum(SIGNUP_MODES as [SignupMode, ...SignupMode[]], { error: `must be one of ${SIGNUP_MODES.join(', ')}` }).default('closed')),
  // Never echoed: it signs the session cookies.
  CONSOLE_SESSION_SECRET: z.preprocess(blankToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  CONSOLE_SECURE_COOKIES: z.preprocess(lowerCase, z.string().optional()).transform((value) => /^(1|true|yes)$/.test(value ?? '')),
  CONSOLE_INVITE_CODES: z.preprocess(blankToUndefined, z.string().default('')),
  LEDGER_REDIS_URL: z.preprocess(blankToUndefined, z.string().optional()),
  REDIS_URL: z.preprocess(blankToUndefined, z.string().optional()),
  // As the gateways read them (gateway-settings.ts): the watcher's address turns watches on.
  WATCHER_ADDRESS: z.preprocess(blankToUndefined, z.string().regex(/^\S+:\d{1,5}$/, 'must be host:port').optional()),
  // Never echoed: it authenticates the console to the watcher.
  SERVICE_TOKEN: z.preprocess(blankToUndefined, z.string().optional()),
}).superRefine((e, issues) => {
  if (e.WATCHER_ADDRESS && !e.SERVICE_TOKEN) issues.addIssue({ code: 'custom', path: ['SERVICE_TOKEN'], message: 'is required when WATCHER_ADDRESS is set' });
});

export class ConsoleConfigError extends EnvironmentError {}

/** Reads and validates the console's settings; throws ConsoleConfigError naming every bad variable. */
export function loadConsoleConfig(env: Readonly<Record<string, string | undefined>> = process.env): ConsoleConfig {
  const parsed = ConsoleEnvSchema.safeParse(env);
  if (!parsed.success) throw new ConsoleConfigError('console', environmentProblems(parsed.error.issues));
  const e = parsed.data;
  const redisUrl = e.LEDGER_REDIS_URL ?? e.REDIS_URL;
  return {
    host: e.HOST,
    port: e.PORT,
    ...(redisUrl ? { redisUrl } : {}),
    signupMode: e.CONSOLE_SIGNUP_MODE,
    sessionSecret: e.CONSOLE_SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    sessionSecretGenerated: e.CONSOLE_SESSION_SECRET === undefined,
    secureCookies: e.CONSOLE_SECURE_COOKIES,
    invites: e.CONSOLE_INVITE_CODES.split(',')
      .map((code) => code.trim())
      .filter((code) => code !== ''),
    ...(e.WATCHER_ADDRESS && e.SERVICE_TOKEN ? { watcher: { address: e.WATCHER_ADDRESS, serviceToken: e.SERVICE_TOKEN } } : {}),
  };
}
