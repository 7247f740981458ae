/**
 * The DNS lookup of every webhook connection. It resolves the host, refuses the connection when any
 * address is not allowed, and hands the checked addresses to the socket, which connects to exactly
 * those: there is no second resolution an attacker's DNS could answer differently (DNS rebinding).
 * TLS still verifies the certificate against the URL's host name (SNI and Host are the name).
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { PUBLIC_ONLY, refusalOfAddress, type TargetPolicy } from './address-rules.js';

/** Every address of a host name; injectable so tests can play a rebinding DNS server. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), as Node's own sockets use it. */
export const systemResolve: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The target's addresses break the address rules: a permanent failure, no connection was made. */
export class TargetRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

function wantedFamily(options: { family?: number | string | undefined }): 0 | 4 | 6 {
  const family = options.family;
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * Checks all the addresses, not only the one a connection would try first: with happy eyeballs the
 * socket may try any of them, and one refused address means the name points somewhere it must not.
 */
async function checkedAddresses(hostname: string, family: 0 | 4 | 6, policy: TargetPolicy, resolve: ResolveHost): Promise<LookupAddress[]> {
  const addresses = await resolve(hostname);
  for (const { address } of addresses) {
    const refusal = refusalOfAddress(address, policy);
    if (refusal) throw new TargetRefusedError(`${hostname} resolves to ${refusal}; ${PUBLIC_ONLY}`);
  }
  const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
  if (usable.length === 0) throw Object.assign(new Error(`${hostname} has no IPv${family || ''} address`), { code: 'ENOTFOUND' });
  return usable;
}

/** A `lookup` for net/tls connect options (undici passes its connector's options through). */
export function guardedLookup(policy: TargetPolicy, resolve: ResolveHost = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, wantedFamily(options), policy, resolve).then(
      (addresses) => {
        const first = addresses[0]!;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
