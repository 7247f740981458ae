/**
 * The SnapshotReader over the core's gRPC API, as a gateway calls it (gateways/shared's core client):
 * GetProduct gives price, stock, buy-box seller, rating and ratings total; GetSalesEstimate gives the
 * best-sellers rank and its category. Both read the same product page, which the core caches and
 * single-flights, so the pair costs one upstream fetch. The core gives no list price and no offer
 * count on these operations: those fields stay undefined (docs/engineering-watches.md, Refresh).
 *
 * A fresh read (a confirmation, docs/watches.md "Quality marks") asks GetProduct alone, past the
 * core's page cache: it confirms price and availability, which GetProduct gives.
 */
import { Domain, ErrorReason } from '@retail/contract';
import { type CoreClient, mapCoreError, registryOperation } from '@retail/gateway-shared';
import type { DomainCode } from '../model.js';
import type { ReadOptions, SnapshotFields, SnapshotRead, SnapshotReader } from './snapshot-reader.js';
import { incidentFieldsOf } from './incident-fields.js';
import { type ProductRecord, type SalesRecord, snapshotFieldsOf } from './snapshot-fields.js';

interface ProductMessage {
  retailProduct?: ProductRecord;
}

interface SalesMessage {
  retailProduct?: SalesRecord;
}

/** The core answers 429 (its own host caps), 503 (breaker, block page, unreachable) or 504 (deadline): all pass. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function createCoreSnapshotReader(core: CoreClient, options: { requestIdPrefix?: string } = {}): SnapshotReader {
  const getProduct = registryOperation('GetProduct');
  const getSalesEstimate = registryOperation('GetSalesEstimate');
  let sequence = 0;

  return {
    async read(domain: DomainCode, asin: string, readOptions: ReadOptions = {}): Promise<SnapshotRead> {
      const request = { asin, domain: Domain[domain] };
      const requestId = `${options.requestIdPrefix ?? 'watcher'}-${asin}-${++sequence}`;
      const { signal, fresh } = readOptions;
      try {
        // Marked as a watch's refresh: the core archives every page it fetches for it (docs/page-archive.md).
        const product = await core.callOperation(getProduct, request, { requestId, watchRefresh: true, ...(signal ? { signal } : {}), ...(fresh ? { freshRead: true } : {}) });
        // GetSalesEstimate reads the page GetProduct just cached; its own failure must not lose the
        // product's fields, so a missing rank is only a missing field (the refresh judges it unknown).
        const sales = fresh ? null : await core.callOperation(getSalesEstimate, request, { requestId, ...(signal ? { signal } : {}) }).catch(() => null);
        const p = (product.response as unknown as ProductMessage).retailProduct ?? {};
        const salesRecord = sales ? (sales.response as unknown as SalesMessage).retailProduct : undefined;
        const retrievedAt = product.meta.retrievedAt ? new Date(product.meta.retrievedAt) : new Date();
        const snapshot: SnapshotFields = { retrievedAt, ...snapshotFieldsOf(p, salesRecord) };
        const incidentFields = incidentFieldsOf(product.meta);
        return { kind: 'snapshot', snapshot, ...(incidentFields.length > 0 && { incidentFields }) };
      } catch (error) {
        const mapped = mapCoreError(error, getProduct, 'rest');
        if (mapped.reason === ErrorReason.NOT_FOUND) return { kind: 'not-found' };
        return { kind: 'failed', retryable: isRetryableStatus(mapped.status), reason: `${mapped.status} ${mapped.message}` };
      }
    },
  };
}
