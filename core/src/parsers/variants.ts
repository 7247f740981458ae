import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProductVariantsSchema, VariantSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { cleanText, isAsin, loadPage, type CheerioAPI } from './results/dom.js';
import { jsonValueAfterKey } from './results/embedded-json.js';
import { readPrice } from './results/locale.js';

export type ProductVariantsInit = MessageInitShape<typeof ProductVariantsSchema>;
type VariantInit = MessageInitShape<typeof VariantSchema>;

export interface VariantsParseContext {
  readonly marketplace: Marketplace;
  /** The ASIN that was requested (marked `isCurrent` when the page names no current child). */
  readonly asin: string;
}

/*
 * The variation ("twister") data of a product page. Source order, most stable first:
 * 1. the twister's inline data (`dimensionValuesDisplayData`: child ASIN → one value per dimension,
 *    `dimensions` + `variationDisplayLabels` for the dimension names, `currentAsin`), which lists
 *    every child, including those the page renders only after a selection;
 * 2. `dimensionToAsinMap` alone (children without their values);
 * 3. the rendered swatches (`#twister li[data-defaultasin]`, `[data-asin]` in `#variation_*`).
 * The parent ASIN is never a variant.
 */
export function parseVariantsPage(html: string, ctx: VariantsParseContext): ProductVariantsInit {
  const $ = loadPage(html);
  const m = ctx.marketplace;
  const anchor = Math.max(0, html.indexOf('dimensionValuesDisplayData'));
  const from = Math.max(0, html.lastIndexOf('dataToReturn', anchor));
  const display = jsonValueAfterKey<Record<string, string[] | string>>(html, 'dimensionValuesDisplayData', from);
  const dimensions = jsonValueAfterKey<string[]>(html, 'dimensions', from) ?? [];
  const labels = jsonValueAfterKey<Record<string, string>>(html, 'variationDisplayLabels', from) ?? {};
  const currentAsin = jsonValueAfterKey<string>(html, 'currentAsin', from) ?? ctx.asin;
  const parentAsin = jsonValueAfterKey<string>(html, 'parentAsin', from);

  const variants: VariantInit[] = [];
  const seen = new Set<string>();
  const add = (asin: string, values: readonly string[]) => {
    const id = asin.toUpperCase();
    if (!isAsin(id) || seen.has(id) || id === parentAsin) return;
    seen.add(id);
    const attributes = values.map((value, i) => ({ name: dimensionName(dimensions[i], labels), value }));
    const variant: VariantInit = { asin: id, url: `${m.origin}/dp/${id}`, attributes, isCurrent: id === currentAsin.toUpperCase() };
    if (values.length > 0) variant.text = values.join(', ');
    variants.push(variant);
  };

  if (display && typeof display === 'object') {
    for (const [asin, values] of Object.entries(display)) add(asin, Array.isArray(values) ? values.map(String) : [String(values)]);
  }
  if (variants.length === 0) {
    const map = jsonValueAfterKey<Record<string, string>>(html, 'dimensionToAsinMap', from);
    if (map) for (const asin of Object.values(map)) add(asin, []);
  }
  if (variants.length === 0) readSwatches($, m, add);
  addSwatchPrices($, m, variants);
  return { variants };
}

function dimensionName(key: string | undefined, labels: Record<string, string>): string {
  if (!key) return '';
  return labels[key] ?? key.replace(/_name$/, '').replace(/_/g, ' ');
}

/** Rendered swatches, for pages whose twister data is missing. */
function readSwatches($: CheerioAPI, _m: Marketplace, add: (asin: string, values: readonly string[]) => void): void {
  for (const el of $('#twister li[data-defaultasin], [id^="variation_"] li[data-asin], #twister [data-csa-c-item-id]').toArray()) {
    const $el = $(el);
    const asin = cleanText($el.attr('data-defaultasin')) ?? cleanText($el.attr('data-asin')) ?? /amzn1\.asin\.([A-Z0-9]{10})/.exec($el.attr('data-csa-c-item-id') ?? '')?.[1];
    const value = cleanText($el.attr('title')?.replace(/^[^:]*:\s*/, '')) ?? cleanText($el.find('img').attr('alt')) ?? cleanText($el.text());
    if (asin) add(asin, value ? [value] : []);
  }
}

/** Prices shown on swatches (`#twister` price slots), matched by ASIN. */
function addSwatchPrices($: CheerioAPI, m: Marketplace, variants: VariantInit[]): void {
  const byAsin = new Map(variants.map((v) => [v.asin, v]));
  for (const el of $('#twister li[data-defaultasin], [id^="variation_"] li[data-asin]').toArray()) {
    const $el = $(el);
    const asin = cleanText($el.attr('data-defaultasin')) ?? cleanText($el.attr('data-asin'));
    const variant = asin ? byAsin.get(asin) : undefined;
    if (!variant || variant.price) continue;
    const price = readPrice(cleanText($el.find('.twisterSwatchPrice, .a-price .a-offscreen, .twister_swatch_price').first().text()), m);
    if (price) variant.price = price;
  }
}
