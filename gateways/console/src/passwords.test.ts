import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

const cheap = { N: 1024, r: 8, p: 1 };

describe('scrypt passwords', () => {
  it('stores parameters and a per-user salt, and verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery', cheap);
    const second = await hashPassword('correct horse battery', cheap);
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  it('treats canonically equal Unicode forms as the same password (NFKC)', async () => {
    const stored = await hashPassword('café au lait!', cheap);
    expect(await verifyPassword('cafe\u0301 au lait!', stored)).toBe(true);
  });

  it('uses the documented default cost and runs many derivations through the bounded queue', async () => {
    const stored = await hashPassword('default cost password');
    expect(stored).toMatch(/^scrypt\$16384\$8\$5\$/);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`parallel ${i} password`, cheap)));
    expect(new Set(results).size).toBe(6);
    expect(await verifyPassword('parallel 3 password', results[3]!)).toBe(true);
  });

  it('refuses malformed stored hashes instead of throwing', async () => {
    for (const stored of ['', 'bcrypt$x', 'scrypt$1024$8$1$salt', 'scrypt$1024$8$1$c2FsdA$', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'scrypt$1000$8$1$c2FsdA$aGFzaA']) {
      expect(await verifyPassword('anything at all', stored)).toBe(false);
    }
  });
});
