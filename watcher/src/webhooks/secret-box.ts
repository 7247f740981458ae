/**
 * Webhook secrets at rest. The service must sign with the secret, so it cannot keep only a hash; it
 * keeps it sealed with AES-256-GCM under a key that is not in the database, so a leaked dump or
 * backup reveals no secret. A sealed value names its key by an id derived from the key itself, so
 * the operator rotates by making a new key current and keeping the old one as retired until every
 * secret has been sealed again (sealedWithRetiredKey tells which).
 *
 * Format: `whbox1.<key id>.<base64url(12-byte IV | ciphertext | 16-byte tag)>`.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const FORMAT = 'whbox1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretKey {
  /** 8 hex characters derived from the key (a label, not a hash that could help guess the key). */
  readonly id: string;
  readonly key: Buffer;
}

export interface SecretKeyring {
  /** Seals new secrets and opens its own. */
  readonly current: SecretKey;
  /** Only open what they sealed, until everything is sealed again under the current key. */
  readonly retired: readonly SecretKey[];
}

/** Opening failed: wrong key, unknown key, tampered or truncated value, or a value bound to another record. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function secretKey(key: Buffer): SecretKey {
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`a secret key is ${KEY_BYTES} bytes, got ${key.length}`);
  const id = createHash('sha256').update('retail webhook secret key id\0').update(key).digest('hex').slice(0, 8);
  return { id, key };
}

export function generateSecretKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/**
 * The sealed value is bound to `boundTo` (the id of the record that holds it, the watch id) as
 * associated data: a sealed secret copied onto another watch does not open there.
 */
function associatedData(keyId: string, boundTo: string): Buffer {
  return Buffer.from(`${FORMAT}.${keyId}.${boundTo}`);
}

export function sealSecret(keyring: SecretKeyring, secret: string, boundTo: string): string {
  const { id, key } = keyring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(id, boundTo));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${FORMAT}.${id}.${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
}

function parts(sealed: string): { keyId: string; iv: Buffer; ciphertext: Buffer; tag: Buffer } {
  const [format, keyId, blob, ...rest] = sealed.split('.');
  if (format !== FORMAT || !keyId || !blob || rest.length > 0) throw new SecretBoxError(`not a sealed secret (${FORMAT}.<key id>.<data>)`);
  const bytes = Buffer.from(blob, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('sealed secret is truncated');
  return {
    keyId,
    iv: bytes.subarray(0, IV_BYTES),
    ciphertext: bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES),
    tag: bytes.subarray(bytes.length - TAG_BYTES),
  };
}

export function openSecret(keyring: SecretKeyring, sealed: string, boundTo: string): string {
  const { keyId, iv, ciphertext, tag } = parts(sealed);
  const key = [keyring.current, ...keyring.retired].find((k) => k.id === keyId);
  if (!key) throw new SecretBoxError(`sealed with key ${keyId}, which is neither the current nor a retired key`);
  const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
  decipher.setAAD(associatedData(keyId, boundTo));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError(`sealed secret does not open with key ${keyId}: tampered, or bound to another record`);
  }
}

/** True when the value should be sealed again under the current key (after a rotation). */
export function sealedWithRetiredKey(keyring: SecretKeyring, sealed: string): boolean {
  return parts(sealed).keyId !== keyring.current.id;
}
