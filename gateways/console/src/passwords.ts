/**
 * Password hashing with node:crypto scrypt: a per-user random salt, parameters stored with the hash
 * (so the cost can rise later without breaking old hashes), and a timing-safe comparison.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

export interface PasswordCost {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * One of OWASP's equivalent scrypt settings (N=2^14, r=8, p=5): 16 MiB and about 0.1–0.25 s per hash
 * here. Chosen over N=2^15, p=1 for its smaller memory, which matters in a 192 MiB pod.
 */
export const DEFAULT_PASSWORD_COST: PasswordCost = { N: 2 ** 14, r: 8, p: 5 };

/**
 * At most this many derivations at once per process: bounds scrypt memory (2 × 16 MiB) and keeps a
 * burst of sign-ins from occupying every libuv thread. Others wait their turn (FIFO).
 */
const MAX_CONCURRENT_DERIVATIONS = 2;
const derivationSlots = pLimit(MAX_CONCURRENT_DERIVATIONS);

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, cost: PasswordCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return derivationSlots(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

/** `scrypt$N$r$p$salt$hash` with base64url salt and hash. */
export async function hashPassword(password: string, cost: PasswordCost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  try {
    const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false; // parameters scrypt refuses: a corrupt record never matches
  }
}

/**
 * A hash of a random password, verified against when the email is unknown so that an unknown email
 * and a wrong password take the same time (nobody learns which emails have accounts).
 */
export function createDecoyHash(cost: PasswordCost): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), cost);
}
