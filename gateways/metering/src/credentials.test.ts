import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import type { HeaderBag, Interface } from './api.js';
import { readCredentials } from './credentials.js';

const KEY = 'rk_abcdefabcdef_0123456789abcdefABCDEF0123456789zzzzzz';
const OTHER = 'rk_abcdefabcdef_9999999999abcdefABCDEF0123456789yyyyyy';

/** Every header form and whether each interface accepts it (docs/contract.md, Authentication). */
const FORMS: Array<{ name: string; headers: (k: string) => HeaderBag; accepted: Interface[] }> = [
  { name: 'API-KEY', headers: (k) => ({ 'api-key': k }), accepted: ['rest', 'graphql', 'mcp'] },
  { name: 'Authorization: Bearer', headers: (k) => ({ authorization: `Bearer ${k}` }), accepted: ['rest', 'graphql', 'mcp'] },
  { name: 'Authorization: bearer (any case)', headers: (k) => ({ authorization: `bearer ${k}` }), accepted: ['rest', 'graphql', 'mcp'] },
  { name: 'SERVICE-API-KEY', headers: (k) => ({ 'service-api-key': k }), accepted: ['mcp'] },
  { name: 'X-API-KEY', headers: (k) => ({ 'x-api-key': k }), accepted: ['mcp'] },
  { name: 'Authorization: Basic', headers: (k) => ({ authorization: `Basic ${k}` }), accepted: [] },
  { name: 'query-like header apikey', headers: (k) => ({ apikey: k }), accepted: [] },
];
const INTERFACES: Interface[] = ['rest', 'graphql', 'mcp'];

describe('readCredentials header matrix', () => {
  for (const form of FORMS) {
    for (const iface of INTERFACES) {
      const accepted = form.accepted.includes(iface);
      it(`${iface} ${accepted ? 'accepts' : 'ignores'} ${form.name}`, () => {
        const result = readCredentials(form.headers(KEY), iface);
        if (accepted) expect(result).toEqual({ ok: true, key: KEY });
        else expect(result).toMatchObject({ ok: false, denial: { reason: ErrorReason.INVALID_API_KEY, httpStatus: 401 } });
      });
    }
  }

  it('accepts the same key in two accepted headers', () => {
    expect(readCredentials({ 'api-key': KEY, authorization: `Bearer ${KEY}` }, 'rest')).toEqual({ ok: true, key: KEY });
    expect(readCredentials({ 'x-api-key': KEY, 'service-api-key': KEY, 'api-key': KEY }, 'mcp')).toEqual({ ok: true, key: KEY });
  });

  it('answers 400 CONFLICTING_CREDENTIALS for two different keys in accepted headers', () => {
    for (const iface of INTERFACES) {
      const result = readCredentials({ 'api-key': KEY, authorization: `Bearer ${OTHER}` }, iface);
      expect(result).toMatchObject({ ok: false, denial: { reason: ErrorReason.CONFLICTING_CREDENTIALS, httpStatus: 400 } });
    }
    expect(readCredentials({ 'x-api-key': KEY, 'service-api-key': OTHER }, 'mcp')).toMatchObject({ ok: false, denial: { httpStatus: 400 } });
    expect(readCredentials({ 'api-key': [KEY, OTHER] }, 'rest')).toMatchObject({ ok: false, denial: { httpStatus: 400 } });
  });

  it('ignores a different key in a header the interface does not accept', () => {
    expect(readCredentials({ 'api-key': KEY, 'x-api-key': OTHER }, 'rest')).toEqual({ ok: true, key: KEY });
    expect(readCredentials({ 'api-key': KEY, authorization: `Basic ${OTHER}` }, 'graphql')).toEqual({ ok: true, key: KEY });
  });

  it('gives missing and empty credentials the one 401 message', () => {
    const messages = [{}, { 'api-key': '' }, { authorization: 'Bearer ' }, { authorization: 'Bearer' }].map((headers) => {
      const result = readCredentials(headers, 'rest');
      if (result.ok) throw new Error('expected a denial');
      expect(result.denial.httpStatus).toBe(401);
      return result.denial.message;
    });
    expect(new Set(messages)).toEqual(new Set(['API key is invalid or missing']));
  });

  it('reads headers given with their original case and trims whitespace', () => {
    expect(readCredentials({ 'API-KEY': `  ${KEY} ` }, 'rest')).toEqual({ ok: true, key: KEY });
  });
});
