import { describe, expect, it } from 'vitest';
import { MARKETPLACES, marketplaceByCode } from '../marketplaces/index.js';
import { isMarketplaceOrigin } from './hosts.js';

const US = marketplaceByCode('US');
const DE = marketplaceByCode('DE');

describe('isMarketplaceOrigin', () => {
  it.each([
    'https://www.amazon.com/dp/B000000000',
    'https://amazon.com/dp/B000000000',
    'https://completion.amazon.com/api/2017/suggestions',
    // An explicit default port is the default port (URL drops it).
    'https://www.amazon.com:443/dp/B000000000',
    // Host names are case-insensitive; URL lower-cases them.
    'https://WWW.AMAZON.COM/dp/B000000000',
  ])('accepts %s', (raw) => {
    expect(isMarketplaceOrigin(US, new URL(raw))).toBe(true);
  });

  it.each([
    ['another port', 'https://www.amazon.com:34803/dp/B000000000'],
    ['port 80 over https', 'https://www.amazon.com:80/dp/B000000000'],
    ['port 8443', 'https://www.amazon.com:8443/dp/B000000000'],
    ['plain http', 'http://www.amazon.com/dp/B000000000'],
    ['http on 443', 'http://www.amazon.com:443/dp/B000000000'],
    ['a user name', 'https://user@www.amazon.com/dp/B000000000'],
    ['a user and password', 'https://user:secret@www.amazon.com/dp/B000000000'],
    ['an empty password', 'https://:x@www.amazon.com/dp/B000000000'],
    ['a trailing-dot host', 'https://www.amazon.com./dp/B000000000'],
    ['an IPv4 literal', 'https://127.0.0.1/dp/B000000000'],
    ['an IPv6 literal', 'https://[::1]/dp/B000000000'],
    ['another scheme', 'ftp://www.amazon.com/dp/B000000000'],
    ['a look-alike suffix', 'https://www.amazon.com.evil.example/dp/B000000000'],
    ["another marketplace's host", 'https://www.amazon.de/dp/B000000000'],
  ])('refuses %s (%s)', (_what, raw) => {
    expect(isMarketplaceOrigin(US, new URL(raw))).toBe(false);
  });

  it("accepts every marketplace's own hosts on 443, and only its own", () => {
    for (const m of MARKETPLACES) {
      for (const host of m.allowedHosts) {
        expect(isMarketplaceOrigin(m, new URL(`https://${host}/`)), host).toBe(true);
        expect(isMarketplaceOrigin(m, new URL(`https://${host}:8443/`)), `${host}:8443`).toBe(false);
      }
    }
    expect(isMarketplaceOrigin(DE, new URL(US.origin))).toBe(false);
  });
});
