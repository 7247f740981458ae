import { describe, expect, it } from 'vitest';
import { generateSecretKey, openSecret, sealedWithRetiredKey, sealSecret, secretKey, SecretBoxError, type SecretKeyring } from './secret-box.js';
import { generateWebhookSecret } from './signer.js';

function keyring(): SecretKeyring {
  return { current: secretKey(generateSecretKey()), retired: [] };
}

describe('secret box', () => {
  it('opens what it sealed, and the sealed value does not contain the secret', () => {
    const keys = keyring();
    const secret = generateWebhookSecret();
    const sealed = sealSecret(keys, secret, 'wch_1');
    expect(sealed).toMatch(new RegExp(`^whbox1\\.${keys.current.id}\\.[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret(keys, sealed, 'wch_1')).toBe(secret);
    expect(sealSecret(keys, secret, 'wch_1')).not.toBe(sealed); // a fresh IV each time
  });

  it('does not open under another key, even one that claims the same id', () => {
    const keys = keyring();
    const sealed = sealSecret(keys, generateWebhookSecret(), 'wch_1');
    expect(() => openSecret(keyring(), sealed, 'wch_1')).toThrow(/neither the current nor a retired key/);
    const impostor = { current: { id: keys.current.id, key: generateSecretKey() }, retired: [] };
    expect(() => openSecret(impostor, sealed, 'wch_1')).toThrow(SecretBoxError);
  });

  it('does not open a tampered, truncated or malformed value, nor one moved to another record', () => {
    const keys = keyring();
    const sealed = sealSecret(keys, generateWebhookSecret(), 'wch_1');
    const [format, id, blob] = sealed.split('.') as [string, string, string];
    const bytes = Buffer.from(blob, 'base64url');
    for (const index of [0, 12, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[index] = flipped[index]! ^ 1;
      expect(() => openSecret(keys, `${format}.${id}.${flipped.toString('base64url')}`, 'wch_1'), `byte ${index}`).toThrow(/tampered/);
    }
    expect(() => openSecret(keys, `${format}.${id}.${bytes.subarray(0, 20).toString('base64url')}`, 'wch_1')).toThrow(/truncated/);
    expect(() => openSecret(keys, 'whsec_abc', 'wch_1')).toThrow(/not a sealed secret/);
    expect(() => openSecret(keys, sealed, 'wch_2')).toThrow(/bound to another record/);
  });

  it('rotates: a retired key still opens, and its values are marked for sealing again', () => {
    const old = keyring();
    const secret = generateWebhookSecret();
    const sealedBefore = sealSecret(old, secret, 'wch_1');
    const rotated: SecretKeyring = { current: secretKey(generateSecretKey()), retired: [old.current] };
    expect(openSecret(rotated, sealedBefore, 'wch_1')).toBe(secret);
    expect(sealedWithRetiredKey(rotated, sealedBefore)).toBe(true);
    const sealedAfter = sealSecret(rotated, secret, 'wch_1');
    expect(sealedWithRetiredKey(rotated, sealedAfter)).toBe(false);
    expect(() => openSecret({ current: rotated.current, retired: [] }, sealedBefore, 'wch_1')).toThrow(SecretBoxError);
  });

  it('takes only 32-byte keys and derives the same id from the same key', () => {
    expect(() => secretKey(Buffer.alloc(16))).toThrow(/32 bytes/);
    const key = generateSecretKey();
    expect(secretKey(key).id).toBe(secretKey(Buffer.from(key)).id);
    expect(secretKey(key).id).toMatch(/^[0-9a-f]{8}$/);
  });
});
