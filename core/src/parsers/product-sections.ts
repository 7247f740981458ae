import type { Marketplace } from '../marketplaces/index.js';
import { absoluteUrl, visibleText } from './common/dom.js';
import { attrOf, closestOf } from './common/node-reads.js';
import { firstVisibleText, selectAll, selectFirst, type Page } from './common/page.js';
import { elementTest } from './common/selector-match.js';
import type { ProductInit } from './product-record.js';

/* Readers of the product page's sections: feature bullets, breadcrumb, coupon and seller. */

const isHiddenBullet = elementTest('.aok-hidden, #replacementPartsFitmentBullet');
const isBackLink = elementTest('#breadcrumb-back-link, .a-breadcrumb-divider');
const isLink = elementTest('a');

/*
 * `#feature-bullets` holds the "About this item" list; the apparel layout (2024+) has none and shows
 * that list under the product facts instead (`#productFactsDesktopExpander`, below the facts grid).
 */
const BULLET_LISTS = ['#feature-bullets li', '#productFactsDesktopExpander ul li'];

export function readFeatureBullets(page: Page): string[] {
  for (const selector of BULLET_LISTS) {
    const bullets = readBullets(page, selector);
    if (bullets.length > 0) return bullets;
  }
  return [];
}

function readBullets(page: Page, selector: string): string[] {
  const bullets: string[] = [];
  for (const li of selectAll(page, undefined, selector)) {
    // Hidden bullets (the "make sure this fits" fitment prompt) are not features.
    if (closestOf(li, isHiddenBullet)) continue;
    const text = visibleText(selectFirst(page, li, 'span.a-list-item') ?? li);
    if (text && !bullets.includes(text)) bullets.push(text);
  }
  return bullets;
}

/** The wayfinding breadcrumb, root first; "back to results" links are not categories. */
export function readCategories(page: Page, m: Marketplace): NonNullable<ProductInit['categories']> {
  const names: { name: string; href?: string }[] = [];
  const links = selectAll(page, undefined, '#wayfinding-breadcrumbs_feature_div li a');
  for (const a of links.length > 0 ? links : selectAll(page, undefined, '#wayfinding-breadcrumbs_container li a')) {
    if (closestOf(a, isBackLink) || attrOf(a, 'id') === 'breadcrumb-back-link') continue;
    const name = visibleText(a);
    if (name) names.push({ name, href: attrOf(a, 'href') });
  }
  return names.map((c, i) => {
    const url = absoluteUrl(c.href, m.origin);
    const id = url ? (new URL(url).searchParams.get('node') ?? undefined) : undefined;
    return {
      name: c.name,
      ...(id ? { id } : {}),
      ...(url ? { url } : {}),
      breadcrumbPath: names.slice(0, i + 1).map((n) => n.name).join(' > '),
    };
  });
}

export function readCoupon(page: Page): { coupon: { label: string } } | undefined {
  const label = firstVisibleText(page, [
    '#couponBadgeRegularVpc .couponLabelText',
    '#couponBadgeRegularVpc',
    '#couponBadge .couponLabelText',
    '#couponBadge',
    // Clip-the-coupon checkbox ("Apply 5% voucher"); its "Details" link is not part of the label.
    '#vpcButton .a-checkbox-label',
    '#vpcButton .a-color-success',
    '#promoPriceBlockMessage_feature_div .couponLabelText',
    'label.couponLabelText',
  ]);
  return label ? { coupon: { label } } : undefined;
}

export function readSeller(page: Page): { seller: { sellerId?: string; name: string } } | undefined {
  const link =
    selectFirst(page, undefined, '#sellerProfileTriggerId') ??
    selectFirst(page, undefined, '#merchant-info a[href*="seller="]') ??
    selectFirst(page, undefined, '#merchantInfoFeature_feature_div a[href*="seller="]');
  if (link) {
    const name = visibleText(link);
    const enclosing = closestOf(link, isLink);
    const href = attrOf(link, 'href') ?? (enclosing ? attrOf(enclosing, 'href') : undefined) ?? '';
    const sellerId = /[?&]seller=([A-Z0-9]+)/.exec(href)?.[1];
    if (name) return { seller: { ...(sellerId ? { sellerId } : {}), name } };
  }
  // Sold by the marketplace itself: the current buy box names it without a seller link.
  const name = firstVisibleText(page, ['#merchantInfoFeature_feature_div .offer-display-feature-text-message']);
  return name ? { seller: { name } } : undefined;
}
