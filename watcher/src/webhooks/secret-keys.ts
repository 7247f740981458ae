/**
 * Where the key that seals webhook secrets comes from.
 *
 * - WEBHOOK_SECRET_KEY: base64 of 32 random bytes (`openssl rand -base64 32`), the same on every
 *   replica (a Kubernetes Secret). Production sets it.
 * - WEBHOOK_SECRET_KEYS_RETIRED: comma-separated earlier keys, still accepted for opening, while
 *   the store seals everything again under the current one.
 * - Neither set, one process with a data directory (`npm start`): a key is generated once into
 *   `<data dir>/webhook-secret.key` (mode 0600) with a warning. It then protects secrets in database
 *   dumps but not against someone who can read the data directory, and other replicas cannot open
 *   what it sealed: fine for one machine, wrong for a deployment.
 * - Neither set and no data directory: an error, since a key made up per process would lose every
 *   secret at the next start.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '@retail/contract/environment';
import { generateSecretKey, secretKey, type SecretKey, type SecretKeyring } from './secret-box.js';

export const SECRET_KEY_VARIABLE = 'WEBHOOK_SECRET_KEY';
export const RETIRED_KEYS_VARIABLE = 'WEBHOOK_SECRET_KEYS_RETIRED';
export const SECRET_KEY_FILE = 'webhook-secret.key';

export interface SecretKeySource {
  readonly env?: NodeJS.ProcessEnv;
  /** The one-process data directory (where embedded Postgres keeps its files), when there is one. */
  readonly dataDir?: string;
  readonly warn?: (message: string) => void;
}

/** A missing or malformed key: the person who started the process fixes it, so it prints as a bad environment (exit 2, no stack). */
export class SecretKeyError extends EnvironmentError {
  constructor(problem: string) {
    super('webhooks', [problem]);
  }
}

function decodeKey(text: string, where: string): SecretKey {
  const trimmed = text.trim();
  const bytes = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || bytes.length !== 32) {
    throw new SecretKeyError(`${where} must be base64 of 32 random bytes (openssl rand -base64 32)`);
  }
  return secretKey(bytes);
}

/** Reads the key file, or creates it when missing ('wx': two processes starting together keep one key). */
function keyFromDataDir(dataDir: string, warn: (message: string) => void): SecretKey {
  const path = join(dataDir, SECRET_KEY_FILE);
  try {
    return decodeKey(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, `${generateSecretKey().toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    warn(`${SECRET_KEY_VARIABLE} is not set: generated a key for webhook secrets into ${path}; set ${SECRET_KEY_VARIABLE} on every replica of a deployment`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(readFileSync(path, 'utf8'), path);
}

export function loadSecretKeyring(source: SecretKeySource = {}): SecretKeyring {
  const env = source.env ?? process.env;
  const warn = source.warn ?? ((message) => console.error(JSON.stringify({ level: 'warn', message })));
  const retired = (env[RETIRED_KEYS_VARIABLE] ?? '')
    .split(',')
    .filter((text) => text.trim() !== '')
    .map((text, index) => decodeKey(text, `${RETIRED_KEYS_VARIABLE} item ${index + 1}`));
  const configured = env[SECRET_KEY_VARIABLE];
  if (configured) return { current: decodeKey(configured, SECRET_KEY_VARIABLE), retired };
  if (source.dataDir) return { current: keyFromDataDir(source.dataDir, warn), retired };
  throw new SecretKeyError(`${SECRET_KEY_VARIABLE} is not set: with DATABASE_URL (no data directory) webhook secrets cannot be stored without it; set it to base64 of 32 random bytes (openssl rand -base64 32), the same on every replica`);
}
