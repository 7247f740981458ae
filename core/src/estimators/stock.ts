import type { LanguageCode, Marketplace } from '../marketplaces/types.js';
import type { StockSignals } from '../parsers/stock.js';

/** The stock estimate of docs/contract.md (`retailProduct.stockEstimate`). */
export interface StockEstimate {
  readonly inStock: boolean;
  /** Units the estimate believes are available; undefined when the page gives no bound. */
  readonly stockLevel: number | undefined;
  readonly availabilityMessage: string | undefined;
  readonly offerId: string | undefined;
  /** Which rule produced `stockLevel` (docs/estimates.md); not part of the response. */
  readonly basis: 'only-left-text' | 'out-of-stock-text' | 'quantity-selector' | 'none';
}

/**
 * The marketplaces cap the quantity selector at a fixed number (30 on most storefronts, larger for
 * some product types); a selector that stops below this cap is limited by stock or by a
 * per-customer purchase limit, one that reaches it says only "at least this many".
 */
export const QUANTITY_SELECTOR_CAP = 30;

/**
 * "Only N left" phrasings the marketplace table lacks (reported to its owner): ES writes
 * "Solo queda(n) 3 en stock" with the literal "(n)".
 */
const EXTRA_ONLY_LEFT: Partial<Record<LanguageCode, readonly RegExp[]>> = {
  es: [/S[oó]lo queda\(n\) (?<count>\d+)/i],
};

/*
 * The stock model (docs/estimates.md, "Stock"), in order:
 * 1. "Only N left in stock" in the marketplace's language → N (the marketplace's own count);
 * 2. an out-of-stock phrase → not in stock, level 0;
 * 3. in stock (an in-stock phrase or a buy button) and a quantity selector whose maximum is below
 *    the selector cap → that maximum (an upper bound when a purchase limit applies);
 * 4. otherwise in stock with no level (the page gives no bound).
 */
export function estimateStock(signals: StockSignals, m: Marketplace): StockEstimate {
  const message = signals.availabilityMessage;
  const base = { availabilityMessage: message, offerId: signals.offerId };
  if (message) {
    for (const pattern of [...m.words.availability.onlyLeftPatterns, ...(EXTRA_ONLY_LEFT[m.language] ?? [])]) {
      const count = Number(pattern.exec(message)?.groups?.['count']);
      if (Number.isInteger(count) && count >= 0) return { ...base, inStock: count > 0, stockLevel: count, basis: 'only-left-text' };
    }
    const lower = message.toLowerCase();
    if (m.words.availability.outOfStock.some((w) => lower.includes(w.toLowerCase()))) {
      return { ...base, inStock: false, stockLevel: 0, basis: 'out-of-stock-text' };
    }
  }
  const saysInStock = !!message && m.words.availability.inStock.some((w) => message.toLowerCase().includes(w.toLowerCase()));
  const inStock = saysInStock || signals.buyable;
  if (inStock && signals.quantityMax !== undefined && signals.quantityMax < QUANTITY_SELECTOR_CAP) {
    return { ...base, inStock, stockLevel: signals.quantityMax, basis: 'quantity-selector' };
  }
  return { ...base, inStock, stockLevel: undefined, basis: 'none' };
}
