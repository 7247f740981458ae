import { describe, expect, it } from 'vitest';
import { Kind, parseValue } from './graphql.js';
import { DateTime, SafeInt } from './scalars.js';

describe('SafeInt', () => {
  it('passes safe integers (int64 bigints too) and refuses the rest, out and in', () => {
    expect(SafeInt.serialize(42)).toBe(42);
    expect(SafeInt.serialize(2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => SafeInt.serialize(2 ** 53)).toThrow('SafeInt cannot represent 9007199254740992: not an integer within ±(2^53 − 1)');
    expect(() => SafeInt.parseValue('7')).toThrow(/not an integer/);
    expect(() => SafeInt.serialize(1.5)).toThrow(/not an integer/);
  });

  it('reads integer literals only', () => {
    expect(SafeInt.parseLiteral(parseValue('9007199254740991'))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => SafeInt.parseLiteral(parseValue('9007199254740992'))).toThrow(/not an integer within/);
    expect(() => SafeInt.parseLiteral(parseValue('"7"'))).toThrow('SafeInt must be an integer literal');
    expect(() => SafeInt.parseLiteral(parseValue('1.0'))).toThrow('SafeInt must be an integer literal');
  });
});

describe('DateTime', () => {
  it('passes RFC 3339 strings unchanged and refuses other values', () => {
    expect(DateTime.serialize('2026-11-25T10:00:00.250Z')).toBe('2026-11-25T10:00:00.250Z');
    expect(DateTime.parseValue('2026-11-25T11:00:00+01:00')).toBe('2026-11-25T11:00:00+01:00');
    expect(() => DateTime.parseValue('2026-11-25')).toThrow('DateTime cannot represent "2026-11-25": not an RFC 3339 date-time');
    expect(() => DateTime.serialize(new Date())).toThrow(/not an RFC 3339 date-time/);
  });

  it('reads string literals only', () => {
    expect(DateTime.parseLiteral(parseValue('"2026-11-25T10:00:00Z"'))).toBe('2026-11-25T10:00:00Z');
    expect(() => DateTime.parseLiteral(parseValue('"2026-13-01T10:00:00Z"'))).toThrow(/not an RFC 3339 date-time/);
    expect(() => DateTime.parseLiteral({ kind: Kind.INT, value: '1' })).toThrow('DateTime must be a string literal');
  });
});
