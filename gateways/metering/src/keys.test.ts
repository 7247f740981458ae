import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateKey, hashKey, newAccountId, parseKey } from './keys.js';

describe('API key format', () => {
  it('embeds the account id as hash tag, passes its own checksum and hashes to SHA-256 hex', () => {
    const accountId = newAccountId();
    const { key, hash, displayPrefix } = generateKey(accountId);
    expect(key).toMatch(new RegExp(`^rk_${accountId}_[0-9A-Za-z]{38}$`));
    expect(parseKey(key)).toEqual({ accountId, hash });
    expect(hash).toBe(hashKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(displayPrefix)).toBe(true);
    expect(displayPrefix.length).toBe(20);
  });

  it('generates distinct keys', () => {
    const accountId = newAccountId();
    const keys = new Set(Array.from({ length: 200 }, () => generateKey(accountId).key));
    expect(keys.size).toBe(200);
  });

  it('refuses any single-character change (checksum) and foreign shapes', () => {
    const { key } = generateKey(newAccountId());
    fc.assert(
      fc.property(fc.integer({ min: 0, max: key.length - 1 }), fc.constantFrom(...'0aZ9_xQ'), (index, char) => {
        fc.pre(key[index] !== char);
        expect(parseKey(key.slice(0, index) + char + key.slice(index + 1))).toBeNull();
      }),
    );
    for (const bad of ['', 'rk_', key + 'a', key.slice(0, -1), key.toUpperCase(), `Bearer ${key}`]) expect(parseKey(bad)).toBeNull();
  });
});
