import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSecretKey, openSecret, sealSecret, secretKey } from './secret-box.js';
import { loadSecretKeyring, SECRET_KEY_FILE } from './secret-keys.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-keys-'));
  dirs.push(dir);
  return dir;
}

describe('loadSecretKeyring', () => {
  it('uses WEBHOOK_SECRET_KEY and the retired keys from the environment', () => {
    const current = generateSecretKey();
    const retired = [generateSecretKey(), generateSecretKey()];
    const keyring = loadSecretKeyring({
      env: { WEBHOOK_SECRET_KEY: current.toString('base64'), WEBHOOK_SECRET_KEYS_RETIRED: retired.map((k) => k.toString('base64')).join(' , ') },
      dataDir: tempDir(),
    });
    expect(keyring.current.id).toBe(secretKey(current).id);
    expect(keyring.retired.map((k) => k.id)).toEqual(retired.map((k) => secretKey(k).id));
  });

  it('refuses a key that is not base64 of 32 bytes', () => {
    expect(() => loadSecretKeyring({ env: { WEBHOOK_SECRET_KEY: 'short' } })).toThrow(/base64 of 32 random bytes/);
    expect(() => loadSecretKeyring({ env: { WEBHOOK_SECRET_KEY: generateSecretKey().toString('hex') } })).toThrow(/base64 of 32 random bytes/);
  });

  it('without the variable, generates one key into the data directory with a warning and keeps it across starts', () => {
    const dataDir = tempDir();
    const warnings: string[] = [];
    const first = loadSecretKeyring({ env: {}, dataDir, warn: (m) => warnings.push(m) });
    const second = loadSecretKeyring({ env: {}, dataDir, warn: (m) => warnings.push(m) });

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/WEBHOOK_SECRET_KEY is not set/);
    expect(second.current.id).toBe(first.current.id);
    expect(openSecret(second, sealSecret(first, 'whsec_x', 'wch_1'), 'wch_1')).toBe('whsec_x');
    const file = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  it('without the variable and without a data directory, refuses to make up a key', () => {
    expect(() => loadSecretKeyring({ env: {} })).toThrow(/WEBHOOK_SECRET_KEY is not set/);
  });
});
