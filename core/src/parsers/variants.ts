import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProductVariantsSchema, VariantSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { loadIndexedPage, query, type Page } from './common/page.js';
import { cleanText, isAsin } from './results/dom.js';
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
  return readVariants(loadIndexedPage(html), ctx);
}

/** parseVariantsPage on a loaded page (the twister data is script text: read from `page.html`). */
export function readVariants(page: Page, ctx: VariantsParseContext): ProductVariantsInit {
  const { html } = page;
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
    const shown = values.map(decodeShownText);
    const attributes = shown.map((value, i) => ({ name: dimensionName(dimensions[i], labels), value }));
    const variant: VariantInit = { asin: id, url: `${m.origin}/dp/${id}`, attributes, isCurrent: id === currentAsin.toUpperCase() };
    if (shown.length > 0) variant.text = shown.join(', ');
    variants.push(variant);
  };

  if (display && typeof display === 'object') {
    for (const [asin, values] of Object.entries(display)) add(asin, Array.isArray(values) ? values.map(String) : [String(values)]);
  }
  if (variants.length === 0) {
    const map = jsonValueAfterKey<Record<string, string>>(html, 'dimensionToAsinMap', from);
    if (map) for (const asin of Object.values(map)) add(asin, []);
  }
  if (variants.length === 0) readSwatches(page, m, add);
  addSwatchPrices(page, m, variants);
  return { variants };
}

function dimensionName(key: string | undefined, labels: Record<string, string>): string {
  if (!key) return '';
  return decodeShownText(labels[key] ?? key.replace(/_name$/, '').replace(/_/g, ' '));
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

/**
 * Twister values are JavaScript strings that some pages HTML-escape and (2017–2019) even escape
 * byte by byte ("Wei&#xc3;&#x9f;" for "Weiß"): entities are decoded, and a result that is UTF-8
 * read as Latin-1 is re-read as UTF-8.
 */
export function decodeShownText(text: string): string {
  const decoded = text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? all;
  });
  let out = decoded;
  if (/[\u00c2-\u00f4][\u0080-\u00bf]/.test(decoded) && [...decoded].every((c) => c.charCodeAt(0) < 0x100)) {
    const bytes = Uint8Array.from([...decoded].map((c) => c.charCodeAt(0)));
    const utf8 = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (!utf8.includes('\ufffd')) out = utf8;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Rendered swatches, for pages whose twister data is missing. */
function readSwatches(page: Page, _m: Marketplace, add: (asin: string, values: readonly string[]) => void): void {
  for (const el of query(page, '#twister li[data-defaultasin], [id^="variation_"] li[data-asin], #twister [data-csa-c-item-id]').toArray()) {
    const $el = page.$(el);
    const asin = cleanText($el.attr('data-defaultasin')) ?? cleanText($el.attr('data-asin')) ?? /amzn1\.asin\.([A-Z0-9]{10})/.exec($el.attr('data-csa-c-item-id') ?? '')?.[1];
    const value = cleanText($el.attr('title')?.replace(/^[^:]*:\s*/, '')) ?? cleanText($el.find('img').attr('alt')) ?? cleanText($el.text());
    if (asin) add(asin, value ? [value] : []);
  }
}

/**
 * Prices shown on swatches, matched by ASIN: the 2016–2021 twister (`li[data-defaultasin]`,
 * `.twisterSwatchPrice`) and the 2023+ inline twister (`li.inline-twister-swatch[data-asin]` with
 * an apex price slot, whose visible price is the `aria-hidden` span).
 */
function addSwatchPrices(page: Page, m: Marketplace, variants: VariantInit[]): void {
  const byAsin = new Map(variants.map((v) => [v.asin, v]));
  const swatches = query(page, '#twister li[data-defaultasin], [id^="variation_"] li[data-asin], li.inline-twister-swatch[data-asin]').toArray();
  for (const el of swatches) {
    const $el = page.$(el);
    const asin = cleanText($el.attr('data-defaultasin')) ?? cleanText($el.attr('data-asin'));
    const variant = asin ? byAsin.get(asin) : undefined;
    if (!variant || variant.price) continue;
    const shown = [
      $el.find('.apex-pricetopay-value [aria-hidden="true"]').first().text(),
      $el.find('.twisterSwatchPrice, .twister_swatch_price').first().text(),
      $el.find('.a-price .a-offscreen').first().text(),
    ]
      .map((t) => t.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ''))
      .find((t) => cleanText(t));
    const price = readPrice(shown, m);
    if (price) variant.price = price;
  }
}
