import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RefinementSchema } from '@retail/contract';
import { cardIndex, hasClass } from './card-index.js';
import { cleanText, type CheerioAPI } from './dom.js';

export type RefinementInit = MessageInitShape<typeof RefinementSchema>;

/*
 * The filter sidebar of a search page (`#s-refinements`, 2019+; `#refinements` before). Each group
 * has a heading and links; an option's `value` is the link's `rh` parameter (the marketplace's own
 * refinement expression, e.g. `n:172541,p_72:1248879011`) when it has one, else the link's path and
 * query, so a client can tell options apart and see what the marketplace would filter on.
 */
export function parseRefinements($: CheerioAPI): RefinementInit[] {
  const root = $('#s-refinements, #refinements').first();
  if (root.length === 0) return [];
  const out: RefinementInit[] = [];
  const groups = root.find('[role="group"], div[id^="p_"], div[id^="n-"], div[id="departments"]').toArray();
  const seen = new Set<string>();
  for (const group of groups) {
    const $group = $(group);
    const name =
      cleanText($group.find('[role="heading"]').first().text()) ??
      cleanText($group.find('h4, h3, .a-text-bold').first().text()) ??
      cleanText($group.prev('h4, h3, [role="heading"]').first().text());
    if (!name || seen.has(name)) continue;
    const options = cardIndex(group)
      .byTag('a')
      .filter((a) => a.attribs.href !== undefined)
      .map((a) => {
        const $a = $(a);
        const label = cardIndex(a).byTag('span').find((span) => hasClass(span, 'a-size-base') || hasClass(span, 'a-color-base'));
        const optionName = (label ? cleanText($(label).text()) : undefined) ?? cleanText($a.attr('aria-label')) ?? cleanText($a.text());
        const value = refinementValue(a.attribs.href);
        return optionName && value ? { name: optionName, value } : undefined;
      })
      .filter((o): o is { name: string; value: string } => o !== undefined && !/^javascript:/i.test(o.value));
    if (options.length === 0) continue;
    seen.add(name);
    out.push({ name, options });
  }
  return out;
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
