import type { Marketplace } from '../marketplaces/index.js';
import { absoluteUrl, firstVisibleText, visibleText, type CheerioAPI } from './common/dom.js';
import type { ProductInit } from './product.js';

/* Readers of the product page's sections: feature bullets, breadcrumb, coupon and seller. */

export function readFeatureBullets($: CheerioAPI): string[] {
  const bullets: string[] = [];
  for (const li of $('#feature-bullets li').toArray()) {
    // Hidden bullets (the "make sure this fits" fitment prompt) are not features.
    if ($(li).closest('.aok-hidden, #replacementPartsFitmentBullet').length > 0) continue;
    const span = $(li).find('span.a-list-item').first();
    const text = visibleText($, span.length > 0 ? span : li);
    if (text && !bullets.includes(text)) bullets.push(text);
  }
  return bullets;
}

/** The wayfinding breadcrumb, root first; "back to results" links are not categories. */
export function readCategories($: CheerioAPI, m: Marketplace): NonNullable<ProductInit['categories']> {
  const names: { name: string; href?: string }[] = [];
  const links = $('#wayfinding-breadcrumbs_feature_div li a').toArray();
  for (const a of links.length > 0 ? links : $('#wayfinding-breadcrumbs_container li a').toArray()) {
    if ($(a).closest('#breadcrumb-back-link, .a-breadcrumb-divider').length > 0 || $(a).attr('id') === 'breadcrumb-back-link') continue;
    const name = visibleText($, a);
    if (name) names.push({ name, href: $(a).attr('href') });
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

export function readCoupon($: CheerioAPI): { coupon: { label: string } } | undefined {
  const label = firstVisibleText($, [
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

export function readSeller($: CheerioAPI): { seller: { sellerId?: string; name: string } } | undefined {
  const link = $('#sellerProfileTriggerId').first().length
    ? $('#sellerProfileTriggerId').first()
    : $('#merchant-info a[href*="seller="]').first().length
      ? $('#merchant-info a[href*="seller="]').first()
      : $('#merchantInfoFeature_feature_div a[href*="seller="]').first();
  if (link.length > 0) {
    const name = visibleText($, link);
    const href = link.attr('href') ?? link.closest('a').attr('href') ?? '';
    const sellerId = /[?&]seller=([A-Z0-9]+)/.exec(href)?.[1];
    if (name) return { seller: { ...(sellerId ? { sellerId } : {}), name } };
  }
  // Sold by the marketplace itself: the current buy box names it without a seller link.
  const name = firstVisibleText($, ['#merchantInfoFeature_feature_div .offer-display-feature-text-message']);
  return name ? { seller: { name } } : undefined;
}
