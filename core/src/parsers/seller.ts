import type { MessageInitShape } from '@bufbuild/protobuf';
import type { SellerSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { firstAttr, loadIndexedPage, selectAll, selectFirst, type Page } from './common/page.js';
import { cleanText, firstText, textOf } from './results/dom.js';
import { readCount, readRating } from './results/locale.js';
import { parseResultList } from './search.js';

export type SellerInit = MessageInitShape<typeof SellerSchema>;

export interface SellerParseContext {
  readonly marketplace: Marketplace;
  readonly sellerId: string;
  readonly page?: number;
}

/*
 * A seller's storefront is a search page restricted to the seller (`/s?me=SELLER`): its cards are
 * read by the shared result-list parser. The storefront's <title> names the seller
 * ("gogo-shopping @ Amazon.com"; 2020+ storefronts show "Amazon.com: gogo-shopping" or the
 * seller's name in the refinement sidebar), which is the name used when no profile page is read.
 */
export function parseSellerStorefront(html: string, ctx: SellerParseContext): SellerInit {
  return readSellerStorefront(loadIndexedPage(html), ctx);
}

/** parseSellerStorefront on a loaded page. */
export function readSellerStorefront(page: Page, ctx: SellerParseContext): SellerInit {
  const seller: SellerInit = { sellerId: ctx.sellerId, productResults: parseResultList(page, ctx) };
  const name = storefrontName(cleanText(textOf(selectFirst(page, undefined, 'title'))));
  if (name) seller.name = name;
  return seller;
}

function storefrontName(title: string | undefined): string | undefined {
  if (!title) return undefined;
  const at = /^(.+?)\s+@\s+Amazon\./i.exec(title)?.[1];
  if (at) return at.trim();
  const colon = /^Amazon\.[a-z.]+\s*:\s*(.+)$/i.exec(title)?.[1];
  return colon && !/^\s*$/.test(colon) ? colon.trim() : undefined;
}

/**
 * The seller profile page (`/sp?seller=SELLER`): name, logo, rating ("4.5 out of 5 stars"),
 * ratings count ("(2,982 ratings)"), percent positive, about text and the detailed-information
 * phone number when shown. Fields the page does not show are omitted.
 */
export function parseSellerProfile(html: string, ctx: SellerParseContext): SellerInit {
  return readSellerProfile(loadIndexedPage(html), ctx);
}

/** parseSellerProfile on a loaded page. */
export function readSellerProfile(page: Page, ctx: SellerParseContext): SellerInit {
  const m = ctx.marketplace;
  const seller: SellerInit = { sellerId: ctx.sellerId };
  const name = firstText(page, undefined, ['#seller-name', '#sellerName', '#sellerName-rd', 'h1']);
  if (name) seller.name = name;
  const logo = firstAttr(page, undefined, ['#seller-logo-container img', '#sellerLogo', 'img#seller-logo'], 'src');
  if (logo) seller.logoUrl = logo;
  const ratingText = firstText(page, undefined, ['#seller-info-feedback-summary .a-icon-alt', '#effective-timeperiod-rating-year-description', '.feedback-detail-stars .a-icon-alt', '#feedback-summary-table .a-icon-alt']);
  const rating = readRating(ratingText, m);
  if (rating !== undefined) seller.rating = rating;
  const countText = firstText(page, undefined, ['#seller-info-feedback-summary .feedback-detail-description', '#seller-info-feedback-summary a', '#rating-count', '.feedback-detail-description']);
  // "94% positive in the last 12 months (2,982 ratings)": the count is the number in parentheses.
  const count = readCount(/\(([^)]*\d[^)]*)\)/.exec(countText ?? '')?.[1] ?? countText?.replace(/\d+\s*%/g, ''));
  if (count !== undefined) seller.ratingsTotal = BigInt(count);
  const about = firstText(page, undefined, ['#spp-expander-about-seller .a-row', '#about-seller-text', '#about-seller', '#spp-expander-about-seller']);
  if (about) seller.about = about;
  const phone = detailRow(page, ['Phone number', 'Telefonnummer', 'Numéro de téléphone', 'Numero di telefono', 'Número de teléfono', 'Telefone', '電話番号', 'Numer telefonu']);
  if (phone) seller.phone = phone;
  return seller;
}

/** A "Label: value" row of the detailed seller information block. */
function detailRow(page: Page, labels: readonly string[]): string | undefined {
  for (const el of selectAll(page, undefined, '#page-section-detail-seller-info .a-row, #seller-detail-info .a-row, .a-row')) {
    const text = cleanText(textOf(el));
    if (!text) continue;
    for (const label of labels) {
      if (text.toLowerCase().startsWith(`${label.toLowerCase()}:`)) {
        const value = cleanText(text.slice(label.length + 1));
        if (value) return value;
      }
    }
  }
  return undefined;
}

/** Storefront results merged with what the profile page shows (the profile wins for the header fields). */
export function mergeSeller(storefront: SellerInit, profile: SellerInit | undefined): SellerInit {
  if (!profile) return storefront;
  const merged: SellerInit = { ...storefront };
  for (const key of ['name', 'logoUrl', 'phone', 'rating', 'ratingsTotal', 'about'] as const) {
    if (profile[key] !== undefined) (merged as Record<string, unknown>)[key] = profile[key];
  }
  return merged;
}
