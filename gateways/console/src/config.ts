/** The console deployment's settings, read once from the environment (names fixed in the docs). */
import { randomBytes } from 'node:crypto';
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
}

export function loadConsoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  const mode = (env.CONSOLE_SIGNUP_MODE ?? 'closed').trim().toLowerCase();
  if (!SIGNUP_MODES.includes(mode as SignupMode)) {
    throw new Error(`CONSOLE_SIGNUP_MODE must be one of ${SIGNUP_MODES.join(', ')}, got "${env.CONSOLE_SIGNUP_MODE}"`);
  }
  const secret = env.CONSOLE_SESSION_SECRET ?? '';
  if (secret !== '' && secret.length < 32) throw new Error('CONSOLE_SESSION_SECRET must be at least 32 characters');
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const redisUrl = env.LEDGER_REDIS_URL || env.REDIS_URL || undefined;
  return {
    host: env.HOST ?? '0.0.0.0',
    port,
    ...(redisUrl ? { redisUrl } : {}),
    signupMode: mode as SignupMode,
    sessionSecret: secret || randomBytes(32).toString('base64url'),
    sessionSecretGenerated: secret === '',
    secureCookies: /^(1|true|yes)$/i.test(env.CONSOLE_SECURE_COOKIES ?? ''),
    invites: (env.CONSOLE_INVITE_CODES ?? '')
      .split(',')
      .map((code) => code.trim())
      .filter((code) => code !== ''),
  };
}
