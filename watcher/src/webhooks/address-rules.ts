/**
 * Which IP addresses a webhook may be delivered to. A webhook URL is chosen by a client, so without
 * these rules the watcher would POST wherever a client points it: the cluster's own services, the
 * node's cloud metadata endpoint, the operator's private network (server-side request forgery).
 *
 * Three kinds of address:
 * - public: global unicast, always allowed;
 * - internal: loopback, private, link-local, CGNAT, unique-local: allowed only when the operator
 *   allows private targets (development, tests, receivers inside the operator's own network);
 * - never: cloud metadata endpoints, and everything that is not a unicast host (unspecified,
 *   broadcast, multicast, documentation, benchmarking, reserved, tunnels), whatever the setting.
 */
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

export type AddressKind = 'public' | 'internal' | 'never';

export interface AddressClass {
  readonly kind: AddressKind;
  /** Why, in words a client can act on ("loopback", "private (RFC 1918)", …). */
  readonly what: string;
}

export interface TargetPolicy {
  /** The operator's setting (WEBHOOK_ALLOW_PRIVATE_TARGETS): internal addresses and names are allowed. */
  readonly allowPrivateTargets: boolean;
  /**
   * WEBHOOK_ALLOW_LOOPBACK: this machine's loopback (127.0.0.0/8, ::1, localhost) is allowed, over
   * http too, so a receiver on the developer's machine (`retail listen`) gets the events. On in the
   * one-process `npm start` and `npm run demo`, where the service and its user share the machine;
   * off in every deployment (on a server, loopback is the server's own services).
   */
  readonly allowLoopback?: boolean;
}

/** What classifyAddress calls this machine's own addresses. */
const LOOPBACK = 'loopback';

/**
 * Metadata endpoints hold the node's cloud credentials: the classic prize of a forged request and no
 * place an event should go, so they stay refused even when the operator allows private targets.
 * AWS/GCP/Azure/OpenStack (169.254.169.254), AWS over IPv6 (fd00:ec2::254), Alibaba (100.100.100.200).
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** ipaddr.js's range names by kind, each with what it is in a client's words. */
type RangesByKind = { readonly [K in AddressKind]?: Readonly<Record<string, string>> };

function classesByRange(kinds: RangesByKind): ReadonlyMap<string, AddressClass> {
  return new Map(Object.entries(kinds).flatMap(([kind, ranges]) =>
    Object.entries(ranges).map(([range, what]): [string, AddressClass] => [range, { kind: kind as AddressKind, what }])));
}

const IPV4_RANGES = classesByRange({
  public: { unicast: 'public' },
  internal: {
    loopback: LOOPBACK, private: 'private (RFC 1918)', linkLocal: 'link-local',
    carrierGradeNat: 'shared address space (CGNAT, 100.64.0.0/10)',
  },
  never: { unspecified: 'unspecified (0.0.0.0/8)', broadcast: 'broadcast', multicast: 'multicast' },
});

/** Public is not a range name here: ipaddr.js calls all of the rest `unicast`, of which only 2000::/3 is global. */
const IPV6_RANGES = classesByRange({
  internal: {
    loopback: LOOPBACK, linkLocal: 'link-local', uniqueLocal: 'unique-local (fc00::/7)',
    deprecatedSiteLocal: 'site-local (fec0::/10)',
  },
  never: { unspecified: 'unspecified (::)', multicast: 'multicast', teredo: 'a Teredo tunnel address' },
});

const PUBLIC: AddressClass = { kind: 'public', what: 'public' };
const RESERVED: AddressClass = { kind: 'never', what: 'reserved or special-purpose' };

/** Only 2000::/3 is allocated as global unicast; everything else outside the named ranges is special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** RFC 8215 local-use NAT64: a translator inside some operator's network, with its own embedding. */
const LOCAL_USE_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

function classifyV4(address: ipaddr.IPv4): AddressClass {
  return IPV4_RANGES.get(address.range()) ?? RESERVED;
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  const range = address.range();
  if (range === 'rfc6052' && address.match(LOCAL_USE_NAT64)) return { kind: 'internal', what: 'local-use NAT64 (64:ff9b:1::/48)' };
  const named = IPV6_RANGES.get(range);
  if (named) return named;
  // ::a.b.c.d (deprecated IPv4-compatible), ::ffff:0:a.b.c.d (RFC 6145) and unallocated space land here.
  if (range !== 'unicast' || !address.match(GLOBAL_UNICAST_V6)) return RESERVED;
  return PUBLIC;
}

/**
 * The IPv4 address an IPv6 form leads to, when it only leads there: IPv4-mapped (::ffff:a.b.c.d, which
 * the kernel connects over IPv4), well-known NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::/48).
 */
function embeddedIPv4(address: ipaddr.IPv6): { inner: ipaddr.IPv4; form: string } | null {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'ipv4Mapped') return { inner: new ipaddr.IPv4(bytes.slice(12, 16)), form: 'IPv4-mapped' };
  if (range === 'rfc6052' && !address.match(LOCAL_USE_NAT64)) return { inner: new ipaddr.IPv4(bytes.slice(12, 16)), form: 'NAT64' };
  if (range === '6to4') return { inner: new ipaddr.IPv4(bytes.slice(2, 6)), form: '6to4' };
  return null;
}

function classifyParsed(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (METADATA_ADDRESSES.has(address.toString())) return { kind: 'never', what: 'a cloud metadata endpoint' };
  return address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6);
}

/** Classifies a literal address as DNS and URLs give it (dotted quad, IPv6 text, bracketed or not); null when it is none. */
export function classifyAddress(text: string): AddressClass | null {
  // A zone (fe80::1%eth0) only ever follows a link-local address; the address decides alone.
  const bare = (text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text).replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return null;
  // ipaddr.js reads every ::a.b.c.d as IPv4-mapped; the URL parser's RFC 5952 form (::7f00:1) keeps
  // the deprecated IPv4-compatible form apart from ::ffff:a.b.c.d.
  const address = ipaddr.parse(family === 6 ? new URL(`https://[${bare}]/`).hostname.slice(1, -1) : bare);
  const wrapped = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : null;
  if (!wrapped) return classifyParsed(address);
  const inner = classifyParsed(wrapped.inner);
  return inner.kind === 'public' ? inner : { kind: inner.kind, what: `${inner.what} in ${wrapped.form} form (${wrapped.inner.toString()})` };
}

/** The end of every refusal of a target, so a client knows what would be accepted. */
export const PUBLIC_ONLY = 'webhooks go to public hosts only';

/** Why the policy refuses this address ("127.0.0.1 is loopback"), or null when a webhook may go there. */
export function refusalOfAddress(text: string, policy: TargetPolicy): string | null {
  const found = classifyAddress(text);
  if (!found) return `${JSON.stringify(text)} is not an IP address`;
  if (found.kind === 'public') return null;
  if (found.kind === 'internal' && policy.allowPrivateTargets) return null;
  if (found.what === LOOPBACK && policy.allowLoopback) return null;
  return `${text} is ${found.what}`;
}

/** Whether a URL's host is this machine's loopback: a loopback literal, or the name localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return classifyAddress(name)?.what === LOOPBACK;
}
