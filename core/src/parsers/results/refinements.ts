import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RefinementSchema } from '@retail/contract';
import { cardIndex, closest, hasClass } from './card-index.js';
import { selectFirst, type Page } from '../common/page.js';
import { cleanText, textOf, type AnyNode, type Element } from './dom.js';

export type RefinementInit = MessageInitShape<typeof RefinementSchema>;

/*
 * The filter sidebar of a search page (`#s-refinements`, 2019+; `#refinements`/`#leftNavContainer` before). Each group
 * has a heading and links; an option's `value` is the link's `rh` parameter (the marketplace's own
 * refinement expression, e.g. `n:172541,p_72:1248879011`) when it has one, else the link's path and
 * query, so a client can tell options apart and see what the marketplace would filter on.
 */
export function parseRefinements(page: Page): RefinementInit[] {
  const root = selectFirst(page, undefined, '#s-refinements, #refinements, #leftNavContainer');
  if (!root) return [];
  // Walk the sidebar in document order: a heading opens a group, each link below it is an option.
  // (Groups do not nest cleanly: the 2026 price group also holds the "Deals & Discounts" heading.)
  const groups: { name: string; options: { name: string; value: string }[] }[] = [];
  let current: (typeof groups)[number] | undefined;
  for (const el of cardIndex(page, root).all) {
    if (isHeading(el, root)) {
      const name = cleanText(textOf(el));
      current = name ? { name, options: [] } : undefined;
      if (current) groups.push(current);
      continue;
    }
    const href = el.attribs.href;
    if (el.name !== 'a' || href === undefined || /^\s*(javascript:|#)/i.test(href) || !current || insideHeading(el, root)) continue;
    const label = cardIndex(page, el).byTag('span').find((span) => hasClass(span, 'a-size-base') || hasClass(span, 'a-color-base'));
    // Star filters show an icon and "& Up": the icon's text makes the name ("4 out of 5 stars & Up").
    const icon = cardIndex(page, el).byClass('a-icon-alt')[0];
    const labelText = label ? cleanText(textOf(label)) : undefined;
    const optionName = (icon && labelText ? starOptionName(cleanText(textOf(icon)), labelText) : labelText) ?? cleanText(el.attribs['aria-label']) ?? cleanText(textOf(el));
    const value = refinementValue(href);
    if (optionName && value) current.options.push({ name: optionName, value });
  }
  // One group per name (a heading repeated for the mobile layout adds nothing).
  const seen = new Set<string>();
  return groups.filter((g) => g.options.length > 0 && !seen.has(g.name) && seen.add(g.name));
}

/** `[role=heading]`, a bold group title outside one (2026 price group), or an h3/h4 (2018–19). */
function isHeading(el: Element, root: AnyNode): boolean {
  if (el.attribs.role === 'heading') return true;
  if (el.name === 'h3' || el.name === 'h4') return !insideHeading(el, root) && closest(el, root, (n) => n.name === 'a') === undefined;
  return el.name === 'span' && hasClass(el, 'puis-bold-weight-text') && !insideHeading(el, root) && closest(el, root, (n) => n.name === 'a') === undefined;
}

function insideHeading(el: Element, root: AnyNode): boolean {
  return closest(el, root, (n) => n.attribs.role === 'heading' || n.name === 'h3' || n.name === 'h4') !== undefined;
}

/** "4 Stars" + "& Up" → "4 Stars & Up"; "4 Sterne und mehr" + "& mehr" → "4 Sterne und mehr". */
function starOptionName(iconText: string | undefined, label: string): string {
  if (!iconText) return label;
  const rest = label.replace(/^&\s*/, '').toLowerCase();
  return rest && iconText.toLowerCase().endsWith(rest) ? iconText : `${iconText} ${label}`;
}

function refinementValue(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, 'https://marketplace.invalid');
    const rh = url.searchParams.get('rh');
    if (rh) return rh;
    url.searchParams.delete('ref');
    url.searchParams.delete('qid');
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}
