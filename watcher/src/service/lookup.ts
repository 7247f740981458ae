/**
 * A create body's product key (asin, url or gtin, plus domain, exactly as GetProduct takes it) →
 * the {domain, asin} a watch stores. An ASIN is used as given (upper case). A URL or a GTIN is
 * resolved by the core over gRPC, which owns the marketplace hosts, URL rules and GTIN lookups:
 * GetProduct for a URL (the page it reads is then in the core's cache for the first snapshot),
 * GetAsinFromGtin for a GTIN. The core's refusals pass through with their reason and field.
 */
import { Domain, ErrorReason } from '@retail/contract';
import { type CoreClient, mapCoreError, registryOperation } from '@retail/gateway-shared';
import type { DomainCode } from '../model.js';
import { WatchServiceError } from './errors.js';
import { domainOfUrl } from './marketplace-hosts.js';
import { domainCodeOf } from './request-checks.js';

export interface ProductKey {
  readonly domain: DomainCode;
  readonly asin: string;
}

/** The lookup fields of CreateWatchRequest, already checked against their declared rules. */
export interface ProductLookup {
  readonly domain: Domain;
  readonly asin?: string | undefined;
  readonly url?: string | undefined;
  readonly gtin?: string | undefined;
}

export type LookupResolver = (lookup: ProductLookup, context: { requestId: string; signal?: AbortSignal }) => Promise<ProductKey>;

interface ProductAnswer { retailProduct?: { asin?: string } }

function coreRefusal(error: unknown, operation: string): WatchServiceError {
  const mapped = mapCoreError(error, registryOperation(operation), 'graphql');
  // The core's own fault or the core out of reach: the product could not be resolved, try again.
  if (mapped.reason === ErrorReason.INTERNAL || mapped.reason === ErrorReason.UNAUTHENTICATED_SERVICE) {
    return new WatchServiceError(ErrorReason.UPSTREAM_ERROR, 'the product could not be resolved right now; retry later', [], { cause: error });
  }
  return new WatchServiceError(mapped.reason, mapped.message, mapped.path ?? []);
}

/** `core` is needed for url and gtin only; without it those keys are UNIMPLEMENTED. */
export function createLookupResolver(core?: CoreClient): LookupResolver {
  async function call(operation: string, request: Record<string, unknown>, context: { requestId: string; signal?: AbortSignal }, field: string) {
    if (!core) throw new WatchServiceError(ErrorReason.UNIMPLEMENTED, `this watcher has no core to resolve a ${field}; give the asin`, [field]);
    try {
      const { response } = await core.callOperation(registryOperation(operation), request, context);
      return (response as unknown as ProductAnswer).retailProduct?.asin;
    } catch (error) {
      throw coreRefusal(error, operation);
    }
  }

  return async (lookup, context) => {
    if (lookup.asin !== undefined) return { domain: domainCodeOf(lookup.domain), asin: lookup.asin.trim().toUpperCase() };
    if (lookup.url !== undefined) {
      const url = lookup.url.trim();
      const asin = await call('GetProduct', { domain: lookup.domain, url }, context, 'url');
      const domain = lookup.domain === Domain.UNSPECIFIED ? domainOfUrl(url) : domainCodeOf(lookup.domain);
      if (!asin || !domain) throw new WatchServiceError(ErrorReason.NOT_FOUND, 'the url names no product the marketplace has', ['url']);
      return { domain, asin: asin.toUpperCase() };
    }
    const gtin = (lookup.gtin ?? '').trim();
    const asin = await call('GetAsinFromGtin', { domain: lookup.domain, gtin }, context, 'gtin');
    if (!asin) throw new WatchServiceError(ErrorReason.NOT_FOUND, 'no product of the marketplace matches the gtin', ['gtin']);
    return { domain: domainCodeOf(lookup.domain), asin: asin.toUpperCase() };
  };
}
