/**
 * API key format: `rk_<accountId>_<secret><checksum>`.
 *
 * - `accountId` (12 chars, [a-z0-9]) is the account's Redis Cluster hash tag, so every Redis key of the
 *   account (and the lookup of any of its API keys) lands in one slot.
 * - `secret` is 32 base62 characters from crypto.randomBytes (~190 bits).
 * - `checksum` is 6 base62 characters of SHA-256 over everything before it, so a typo or a made-up
 *   key is refused without asking the store.
 *
 * Only the SHA-256 of the whole key and a short display prefix are ever stored.
 */
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'rk_';
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const ACCOUNT_ID_PATTERN = /^[a-z0-9]{12}$/;
const KEY_PATTERN = /^rk_([a-z0-9]{12})_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/** Uniform random string over `alphabet` (rejection sampling keeps it unbiased). */
function randomString(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

export function newAccountId(): string {
  return randomString(12, ID_ALPHABET);
}

export function newKeyId(): string {
  return 'key_' + randomString(12, ID_ALPHABET);
}

// Hold ids only need to be unique among an account's open holds: a random per-process prefix plus a
// counter is enough and keeps the hot path free of a crypto call per request.
const HOLD_PREFIX = randomString(10, BASE62);
let holdCounter = 0;
export function newHoldId(): string {
  holdCounter = (holdCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${HOLD_PREFIX}.${holdCounter.toString(36)}`;
}

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let n = digest.readUInt32BE(0) * 65536 + digest.readUInt16BE(4); // 48 bits, exact in a double
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export interface ParsedKey {
  readonly accountId: string;
  /** SHA-256 (hex) of the whole key: the only form the store knows. */
  readonly hash: string;
}

/** Null when the key cannot be one of ours (shape or checksum): no store lookup needed. */
export function parseKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, accountId, secret, sum] = match as unknown as [string, string, string, string];
  if (checksum(`${KEY_PREFIX}${accountId}_${secret}`) !== sum) return null;
  return { accountId, hash: hashKey(key) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface GeneratedKey {
  readonly key: string;
  readonly hash: string;
  readonly displayPrefix: string;
}

export function generateKey(accountId: string): GeneratedKey {
  const body = `${KEY_PREFIX}${accountId}_${randomString(SECRET_LENGTH, BASE62)}`;
  const key = body + checksum(body);
  return { key, hash: hashKey(key), displayPrefix: key.slice(0, KEY_PREFIX.length + 12 + 1 + 4) };
}
