/**
 * The snapshot fields of a product, from the core's GetProduct record and GetSalesEstimate record:
 * what a refresh stores (core-snapshot-reader.ts) and what re-parsing an archived page re-derives
 * (reparse/), one mapping for both so a repaired point says exactly what a refresh would have.
 */
import type { SnapshotFields } from './snapshot-reader.js';

/** The parts of retail.v1.Product a snapshot reads (as a message or its JSON-like init). */
export interface ProductRecord {
  price?: { value?: number; currency?: string };
  isInStock?: boolean;
  seller?: { sellerId?: string };
  rating?: number;
  ratingsTotal?: number | bigint;
}

/** The parts of retail.v1.ProductSales a snapshot reads. */
export interface SalesRecord {
  salesEstimate?: { bestSellersRank?: number | bigint; category?: string };
}

export function snapshotFieldsOf(product: ProductRecord, sales: SalesRecord | undefined): Omit<SnapshotFields, 'retrievedAt'> {
  const estimate = sales?.salesEstimate;
  return {
    ...(product.price?.value !== undefined && product.price.currency ? { price: { value: product.price.value, currency: product.price.currency } } : {}),
    ...(product.isInStock !== undefined && { isInStock: product.isInStock }),
    ...(product.seller?.sellerId ? { buyboxSellerId: product.seller.sellerId } : {}),
    ...(product.rating !== undefined && { rating: product.rating }),
    ...(product.ratingsTotal !== undefined && { ratingsTotal: Number(product.ratingsTotal) }),
    ...(estimate?.bestSellersRank !== undefined && { bestSellersRank: Number(estimate.bestSellersRank) }),
    ...(estimate?.category ? { bestSellersCategory: estimate.category } : {}),
  };
}
