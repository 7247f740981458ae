/**
 * The webhook URL of a watch's create or update body, checked without touching the network: HTTPS,
 * no credentials, an allowed port, and a host that is neither a refused address literal nor a name
 * that only means something inside a network. Names are resolved (and every address checked) at each
 * delivery by the guarded lookup, because what a name resolves to can change after the watch is made.
 */
import { isIP } from 'node:net';
import { isLoopbackHost, PUBLIC_ONLY, refusalOfAddress, type TargetPolicy } from './address-rules.js';

export interface WebhookUrlError {
  readonly message: string;
  readonly path: Array<string | number>;
}

export type CheckedWebhookUrl = { ok: true; url: URL } | { ok: false; errors: WebhookUrlError[] };

/** Where the URL sits in a watch's body, so 400 entries point at it. */
export const WEBHOOK_URL_PATH = ['webhook', 'url'] as const;

/** Longer URLs are not webhook endpoints but payloads smuggled into the address. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Port policy: 443, or an unprivileged port (1024 to 65535) for receivers behind a proxy or in
 * development. Ports below 1024 other than 443 belong to system services (SSH, SMTP, LDAP, …) that are
 * no webhook receiver, and refusing them keeps the watcher from being a port probe.
 */
export const LOWEST_UNPRIVILEGED_PORT = 1024;

/**
 * Names that only mean something inside a network: RFC 6761 localhost, mDNS .local, ICANN's
 * private-use .internal (GCP's metadata.google.internal), RFC 8375 home.arpa, the common localdomain,
 * and Kubernetes service names (.svc). A single-label name is refused as well: resolvers complete it
 * with their search domains, inside the cluster.
 */
const INTERNAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'localdomain', 'svc'];

function refusalOfName(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const suffix = INTERNAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) return `${hostname} is an internal name (.${suffix}); ${PUBLIC_ONLY}`;
  if (!name.includes('.')) return `${hostname} is a single-label name, completed inside the network; use a fully qualified name`;
  return null;
}

function refusalOfPort(url: URL): string | null {
  // The URL parser drops the scheme's default port: :443 from https (allowed), :80 from http (not).
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (port === 443) return null;
  return port >= LOWEST_UNPRIVILEGED_PORT ? null : `port ${port} is not allowed: use 443 or a port from ${LOWEST_UNPRIVILEGED_PORT} to 65535`;
}

function problemOf(input: unknown, policy: TargetPolicy): string | URL {
  if (typeof input !== 'string' || input.trim() === '') return 'must be an HTTPS URL';
  if (input.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'must be an absolute HTTPS URL';
  }
  // Clear text stays on this machine: http only to its loopback, and only where the operator allows that.
  const loopback = policy.allowLoopback === true && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return policy.allowLoopback ? 'must use https (or http to this machine: 127.0.0.1, [::1], localhost)' : 'must use https (signed events are not sent in clear text)';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password; the signature authenticates the sender';
  if (url.hash !== '') return 'must not contain a fragment (#…): it is never sent';
  const portProblem = refusalOfPort(url);
  if (portProblem) return portProblem;
  // The URL parser has already turned 0x7f.1, 2130706433 and the like into dotted quads.
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) {
    const refusal = refusalOfAddress(url.hostname, policy);
    return refusal ? `${refusal}; ${PUBLIC_ONLY}` : url;
  }
  if (!policy.allowPrivateTargets && !loopback) return refusalOfName(url.hostname) ?? url;
  return url;
}

/**
 * The create-time check (and the first step of every delivery, since the operator's setting may have
 * changed since). Address literals are judged here in full; names only by their form.
 */
export function checkWebhookUrl(input: unknown, policy: TargetPolicy): CheckedWebhookUrl {
  const result = problemOf(input, policy);
  if (result instanceof URL) return { ok: true, url: result };
  return { ok: false, errors: [{ message: result, path: [...WEBHOOK_URL_PATH] }] };
}
