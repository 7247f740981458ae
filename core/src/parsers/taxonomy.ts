import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CategoryNodeSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { absoluteUrl, cleanText, type AnyNode } from './common/dom.js';
import { loadPlainPage, query, type Page } from './common/page.js';

export type CategoryNodeInit = MessageInitShape<typeof CategoryNodeSchema>;

/*
 * The "All departments" directory (`/gp/site-directory`): one group per department, a heading and
 * its links. Layouts, most specific first:
 *  - `#shopAllLinks .popover-grouping` with `h2.popover-category-name` and `ul li a.nav_a`;
 *  - the 2023+ directory, `[data-sd-group]`/`.sd-category` blocks with an `h2` and links;
 *  - the navigation menu (`#hmenu-content ul.hmenu[data-menu-id]`), present on every page;
 * A link's category id is its `node` parameter (`/b/?node=16225007011&ref_=sd_allcat_...`), the
 * stable part; links without one (programme pages such as /music/unlimited) keep their name and URL
 * and have no id. Groups are headings, not nodes: no id or URL. breadcrumbPath joins the levels
 * with " > " (docs/contract.md, CategoryRef).
 */
const GROUP_LAYOUTS: readonly { group: string; heading: string; links: string }[] = [
  { group: '#shopAllLinks .popover-grouping', heading: '.popover-category-name', links: 'ul li a[href]' },
  { group: '[data-sd-group], .sd-category', heading: 'h2, h3, .sd-title', links: 'a[href]' },
  // The navigation menu every page carries: one `ul.hmenu[data-menu-id]` per department, its
  // `.hmenu-title` and its `a.hmenu-item` links (menu 1 is the main menu of department names).
  { group: 'ul.hmenu[data-menu-id]:not([data-menu-id="1"])', heading: '.hmenu-title', links: 'a.hmenu-item[href]:not(.hmenu-back-button)' },
];

export function parseCategoryTaxonomy(html: string, m: Marketplace): CategoryNodeInit[] {
  return readCategoryTaxonomy(loadPlainPage(html), m);
}

/** parseCategoryTaxonomy on a loaded page. */
export function readCategoryTaxonomy(page: Page, m: Marketplace): CategoryNodeInit[] {
  for (const layout of GROUP_LAYOUTS) {
    const groups = query(page, layout.group)
      .toArray()
      .map((group) => readGroup(page, group, layout, m))
      .filter((g): g is CategoryNodeInit => g !== undefined);
    if (groups.length > 0) return mergeSameNamed(groups);
  }
  return [];
}

function readGroup(page: Page, group: AnyNode, layout: (typeof GROUP_LAYOUTS)[number], m: Marketplace): CategoryNodeInit | undefined {
  const name = cleanText(page.$(group).find(layout.heading).first().text());
  if (!name) return undefined;
  const seen = new Set<string>();
  const subcategories: CategoryNodeInit[] = [];
  for (const link of page.$(group).find(layout.links).toArray()) {
    const child = categoryLink(cleanText(page.$(link).text()), page.$(link).attr('href'), m, name);
    if (!child || seen.has(child.url ?? child.name!)) continue;
    seen.add(child.url ?? child.name!);
    subcategories.push(child);
  }
  return subcategories.length > 0 ? { name, breadcrumbPath: name, subcategories } : undefined;
}

/** A directory link as a node: id from `node=`, URL rebuilt on the marketplace (never a foreign host). */
export function categoryLink(name: string | undefined, href: string | undefined, m: Marketplace, parentPath?: string): CategoryNodeInit | undefined {
  if (!name) return undefined;
  const url = absoluteUrl(href, m.origin);
  if (!url) return undefined;
  const parsed = new URL(url);
  if (parsed.host !== m.host && parsed.host !== m.bareHost) return undefined;
  const id = nodeIdOf(parsed);
  const node: CategoryNodeInit = { name, breadcrumbPath: parentPath ? `${parentPath} > ${name}` : name, subcategories: [] };
  if (id) {
    node.id = id;
    node.url = `${m.origin}/b?node=${id}`;
  } else {
    for (const key of [...parsed.searchParams.keys()]) if (/^(ref_?|_encoding|pf_rd_\w+)$/.test(key)) parsed.searchParams.delete(key);
    parsed.pathname = parsed.pathname.replace(/\/ref=[^/]*$/, '');
    node.url = `${m.origin}${parsed.pathname}${parsed.search}`;
  }
  return node;
}

/** The browse node id of a category link: `node=ID`, `rh=n:ID` (the last node named), or `/b/ID`. */
export function nodeIdOf(url: URL): string | undefined {
  const node = url.searchParams.get('node');
  if (node && /^\d+$/.test(node)) return node;
  const rh = url.searchParams.get('rh');
  const nodes = rh ? [...rh.matchAll(/(?:^|,)n:(\d+)/g)].map((x) => x[1]!) : [];
  if (nodes.length > 0) return nodes[nodes.length - 1];
  return undefined;
}

/** Some directories split one department over two columns under the same heading: one node each. */
function mergeSameNamed(groups: CategoryNodeInit[]): CategoryNodeInit[] {
  const byName = new Map<string, CategoryNodeInit>();
  for (const group of groups) {
    const existing = byName.get(group.name!);
    if (existing) existing.subcategories = [...(existing.subcategories ?? []), ...(group.subcategories ?? [])];
    else byName.set(group.name!, group);
  }
  return [...byName.values()];
}
