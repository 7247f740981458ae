/**
 * Reads the API key from exactly the header forms an interface accepts (docs/contract.md, Authentication).
 * Headers an interface does not accept are ignored, as if absent.
 */
import { ErrorReason, errorRow, withRetryAfter } from '@retail/contract';
import type { CredentialResult, Denial, HeaderBag, Interface } from './api.js';

/** Plain key headers per interface; every interface also accepts `Authorization: Bearer <key>`. */
export const KEY_HEADERS: Readonly<Record<Interface, readonly string[]>> = {
  rest: ['api-key'],
  graphql: ['api-key'],
  mcp: ['api-key', 'service-api-key', 'x-api-key'],
};

export const INVALID_KEY_MESSAGE = errorRow(ErrorReason.INVALID_API_KEY).defaultMessage;

export function denial(reason: ErrorReason, extra: Partial<Denial> = {}): Denial {
  const { httpStatus, defaultMessage } = errorRow(reason);
  const message = extra.retryAfterSeconds === undefined ? defaultMessage : withRetryAfter(defaultMessage, extra.retryAfterSeconds);
  return { reason, httpStatus, message, ...extra };
}

function values(raw: string | string[] | undefined): string[] {
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).map((v) => v.trim());
}

function header(headers: HeaderBag, name: string): string | string[] | undefined {
  if (name in headers) return headers[name];
  // Tolerate callers that pass headers with their original case (fetch Headers objects copied by hand).
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

const BEARER = /^bearer\s+(\S*)\s*$/i;

export function readCredentials(headers: HeaderBag, iface: Interface): CredentialResult {
  const found = new Set<string>();
  for (const name of KEY_HEADERS[iface]) {
    for (const value of values(header(headers, name))) {
      if (value !== '') found.add(value); // an empty header counts as missing
    }
  }
  for (const value of values(header(headers, 'authorization'))) {
    const match = BEARER.exec(value);
    if (!match) continue; // another scheme (Basic, ...) is not an API-key credential
    if (match[1]) found.add(match[1]);
  }
  if (found.size > 1) return { ok: false, denial: denial(ErrorReason.CONFLICTING_CREDENTIALS) };
  const [key] = found;
  if (key !== undefined) return { ok: true, key };
  return { ok: false, denial: denial(ErrorReason.INVALID_API_KEY) };
}
