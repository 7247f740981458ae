import { describe, expect, it } from 'vitest';
import { classifyAddress, refusalOfAddress } from './address-rules.js';

const strict = { allowPrivateTargets: false };
const permissive = { allowPrivateTargets: true };

describe('address rules', () => {
  it('allows public unicast addresses of both families', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(refusalOfAddress(address, strict), address).toBeNull();
    }
  });

  it('refuses internal addresses unless the operator allows private targets', () => {
    const internal: Record<string, RegExp> = {
      '127.0.0.1': /loopback/,
      '127.255.0.9': /loopback/,
      '::1': /loopback/,
      '10.0.0.1': /private/,
      '172.16.5.4': /private/,
      '172.31.255.255': /private/,
      '192.168.1.1': /private/,
      '169.254.10.10': /link-local/,
      'fe80::1': /link-local/,
      '100.64.0.1': /CGNAT/,
      'fc00::1': /unique-local/,
      'fd12:3456::1': /unique-local/,
      'fec0::1': /site-local/,
      '::ffff:127.0.0.1': /loopback in IPv4-mapped form/,
      '::ffff:10.0.0.1': /private .*in IPv4-mapped form/,
      '64:ff9b::a00:1': /private .*in NAT64 form/,
      '64:ff9b:1::1': /local-use NAT64/,
      '2002:c0a8:101::1': /private .*in 6to4 form/,
    };
    for (const [address, what] of Object.entries(internal)) {
      expect(refusalOfAddress(address, strict), address).toMatch(what);
      expect(refusalOfAddress(address, permissive), address).toBeNull();
    }
  });

  it('refuses metadata endpoints and non-unicast addresses even when private targets are allowed', () => {
    const never: Record<string, RegExp> = {
      '169.254.169.254': /metadata/,
      '::ffff:169.254.169.254': /metadata/,
      'fd00:ec2::254': /metadata/,
      '100.100.100.200': /metadata/,
      '0.0.0.0': /unspecified/,
      '0.1.2.3': /unspecified/,
      '::': /unspecified/,
      '255.255.255.255': /broadcast/,
      '224.0.0.1': /multicast/,
      'ff02::1': /multicast/,
      '192.0.2.1': /reserved/,
      '198.18.0.1': /reserved/,
      '240.0.0.1': /reserved/,
      '2001:db8::1': /reserved/,
      '::127.0.0.1': /reserved/,
      '2001:0:4136:e378::1': /Teredo/,
      '100::1': /reserved/,
      '::ffff:0:7f00:1': /reserved/,
    };
    for (const [address, what] of Object.entries(never)) {
      expect(refusalOfAddress(address, permissive), address).toMatch(what);
    }
  });

  it('reads bracketed IPv6 as URLs write it and refuses what is not an address', () => {
    expect(classifyAddress('[::1]')).toEqual({ kind: 'internal', what: 'loopback' });
    expect(classifyAddress('fe80::1%eth0')).toEqual({ kind: 'internal', what: 'link-local' });
    expect(classifyAddress('::127.0.0.1')).toMatchObject({ kind: 'never' }); // IPv4-compatible, not IPv4-mapped
    expect(classifyAddress('example.com')).toBeNull();
    expect(refusalOfAddress('example.com', permissive)).toMatch(/not an IP address/);
  });
});
