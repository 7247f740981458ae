import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ReviewSchema, ReviewsPageSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { textWithout } from './common/node-reads.js';
import { loadIndexedPage, selectAll, selectFirst, type Page } from './common/page.js';
import { elementTest } from './common/selector-match.js';
import { attrOf, cleanText, firstText, textOf, type AnyNode } from './results/dom.js';
import { readCount, readRating } from './results/locale.js';
import { parsePageInfo } from './results/page-info.js';
import { ONE_PERSON, reviewDate } from './review-words.js';

export type ReviewInit = MessageInitShape<typeof ReviewSchema>;
export type ReviewsPageInit = MessageInitShape<typeof ReviewsPageSchema>;

export interface ReviewsParseContext {
  readonly marketplace: Marketplace;
  readonly asin: string;
  readonly page?: number;
}

/*
 * Reviews as the marketplace renders them on the product-reviews page and in the product page's
 * "top reviews" block: one `[data-hook="review"]` element each, its id the review id. Every field is
 * read from a `data-hook` (the marketplace's stable test hooks), text read with the locale words.
 */
export function parseReviewsPage(html: string, ctx: ReviewsParseContext): ReviewsPageInit {
  // Only read: the page index answers the per-review `data-hook` questions.
  return readReviewsPage(loadIndexedPage(html), ctx);
}

/** parseReviewsPage on a loaded page. */
export function readReviewsPage(page: Page, ctx: ReviewsParseContext): ReviewsPageInit {
  const reviews = readReviews(page, selectAll(page, undefined, '#cm_cr-review_list [data-hook="review"]'), ctx.marketplace);
  const list = reviews.length > 0 ? reviews : readReviews(page, selectAll(page, undefined, '[data-hook="review"]'), ctx.marketplace);
  const pageInfo = parsePageInfo(page, ctx.page ?? 1, list.length);
  const filterInfo = firstText(page, undefined, ['[data-hook="cr-filter-info-review-rating-count"]', '[data-hook="total-review-count"]']);
  const numbers = (filterInfo ?? '').match(/\d[\d.,\u00a0\u202f]*/g) ?? [];
  // "1,234 total ratings, 456 with reviews": the reviews count is the last number.
  const total = readCount(numbers[numbers.length - 1]);
  if (total !== undefined) {
    pageInfo.totalResults = BigInt(total);
    const pages = Math.max(1, Math.ceil(total / 10));
    const current = Number(pageInfo.currentPage ?? 1n);
    pageInfo.totalPages = BigInt(Math.max(pages, current));
    pageInfo.hasNextPage = current < pages;
  }
  return { reviews: list, pageInfo };
}

/**
 * The top reviews a product page shows: the local list (`#cm-cr-dp-review-list`, 2024+
 * `#localTopReviews`) and the "from other countries" lists (`#cm-cr-global-review-list`, the 2018
 * `cmps-review` widget). A product page holds no other review markup, so every review hook counts.
 */
export function parseTopReviews(html: string, ctx: ReviewsParseContext): ReviewInit[] {
  return readTopReviews(loadIndexedPage(html), ctx);
}

/** parseTopReviews on a loaded page (read only, never changed). */
export function readTopReviews(page: Page, ctx: ReviewsParseContext): ReviewInit[] {
  return readReviews(page, selectAll(page, undefined, '[data-hook="review"], [data-hook="cmps-review"]'), ctx.marketplace);
}

function readReviews(page: Page, nodes: AnyNode[], m: Marketplace): ReviewInit[] {
  const seen = new Set<string>();
  const out: ReviewInit[] = [];
  const carousel = nodes.length > 0 ? carouselImages(page) : new Map<string, string[]>();
  for (const node of nodes) {
    const review = readReview(page, node, m, carousel);
    if (review.id && seen.has(review.id)) continue;
    if (review.id) seen.add(review.id);
    out.push(review);
  }
  return out;
}

/** One URL per image id (the part after /images/I/), the first seen (the full-size carousel URL) kept. */
function uniqueImages(urls: readonly (string | undefined)[]): string[] {
  const byId = new Map<string, string>();
  for (const url of urls) {
    if (!url || url.includes('grey-pixel')) continue;
    const id = /\/images\/I\/([^./]+)/.exec(url)?.[1] ?? url;
    if (!byId.has(id)) byId.set(id, url);
  }
  return [...byId.values()];
}

/** 2024+ product pages put reviews' images in one media carousel, keyed by review id. */
function carouselImages(page: Page): Map<string, string[]> {
  const byReview = new Map<string, string[]>();
  for (const el of selectAll(page, undefined, '[data-reviewid][data-url]')) {
    if (attrOf(el, 'data-mediatype') !== 'IMAGE') continue;
    const id = attrOf(el, 'data-reviewid')!;
    const url = cleanText(attrOf(el, 'data-url'));
    if (url) byReview.set(id, [...(byReview.get(id) ?? []), url]);
  }
  return byReview;
}

/** What a review's title and body leave out (icons, star text, scripts, the read-more and video blocks). */
const TITLE_SKIP = elementTest('i, .a-icon-alt, .a-letter-space, script');
const BODY_SKIP = elementTest('input, script, style, .video-block, [data-hook="review-body-read-more"], .a-hidden, .a-expander-header, .a-cardui-footer');

function readReview(page: Page, node: AnyNode, m: Marketplace, carouselByReview: Map<string, string[]>): ReviewInit {
  const find = (selector: string) => selectAll(page, node, selector);
  const review: ReviewInit = {
    verifiedPurchase: find('[data-hook="avp-badge"], [data-hook="avp-badge-linkless"]').length > 0,
    imageUrls: [],
    videos: [],
  };
  const id = cleanText(attrOf(node, 'id'))?.replace(/-review-card$/, '');
  if (id) review.id = id;
  const title = cleanText(textWithout(selectFirst(page, node, '[data-hook="review-title"], [data-hook="reviewTitle"]'), TITLE_SKIP));
  if (title) review.title = title;
  const body = cleanText(textWithout(selectFirst(page, node, '[data-hook="review-body"], [data-hook="reviewText"]'), BODY_SKIP));
  if (body) review.body = body;
  const rating = readRating(
    firstText(page, node, ['[data-hook="review-star-rating"] .a-icon-alt', '[data-hook="cmps-review-star-rating"] .a-icon-alt', '.review-rating .a-icon-alt']),
    m,
  );
  if (rating !== undefined) review.rating = rating;
  const date = reviewDate(firstText(page, node, ['[data-hook="review-date"]', '[data-hook="cmps-review-date"]']), m.language);
  if (date) review.date = date;
  const helpful = firstText(page, node, ['[data-hook="helpful-vote-statement"]']);
  if (helpful) {
    const votes = ONE_PERSON.test(helpful) ? 1 : readCount(helpful);
    if (votes !== undefined) review.helpfulVotes = BigInt(votes);
  }
  const tiles = find('img[data-hook="review-image-tile"], .review-image-tile').map((img) => cleanText(attrOf(img, 'data-src')) ?? cleanText(attrOf(img, 'src')));
  const carousel = id ? (carouselByReview.get(id) ?? []) : [];
  review.imageUrls = uniqueImages([...carousel, ...tiles]);
  const videoUrl = cleanText(attrOf(find('input.video-url')[0], 'value'));
  if (videoUrl) {
    const video: NonNullable<ReviewInit['videos']>[number] = { url: videoUrl };
    const poster = cleanText(attrOf(find('input.video-slate-img-url')[0], 'value'));
    if (poster) video.posterImageUrl = poster;
    review.videos = [video];
  }
  const reviewer: NonNullable<ReviewInit['reviewer']> = {};
  const name = cleanText(textOf(find('.a-profile-name')[0]));
  if (name) reviewer.name = name;
  const href = attrOf(find('a.a-profile')[0], 'href');
  const account = /amzn1\.account\.[A-Z0-9]+/.exec(href ?? '')?.[0];
  if (account) {
    reviewer.id = account;
    reviewer.url = `${m.origin}/gp/profile/${account}`;
  }
  review.reviewer = reviewer;
  return review;
}
