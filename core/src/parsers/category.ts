import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CategoryRefSchema, CategorySchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { cleanText, type AnyNode } from './common/dom.js';
import { loadPlainPage, query, type Page } from './common/page.js';
import { parseResultList } from './search.js';
import { nodeIdOf } from './taxonomy.js';

export type CategoryInit = MessageInitShape<typeof CategorySchema>;
type CategoryRefInit = MessageInitShape<typeof CategoryRefSchema>;

export interface CategoryParseContext {
  readonly marketplace: Marketplace;
  /** The node id the request named. */
  readonly categoryId: string;
  readonly page: number;
}

/*
 * A category (browse node) page, `/b?node=ID`. Leaf and mid-level nodes render the search layout:
 * result cards and pagination (read by the search parser's shared readers) and a "Department"
 * tree in the sidebar (`#departments`, `li.s-navigation-indent-N`): the levels above the current
 * node are links, the current node is bold text without a link, its children are the links one
 * level deeper. Ids come from each link's `rh=n:ID` or `node=ID` (stable); names from link text.
 * When the tree is missing, the breadcrumb strip (`#wayfinding-breadcrumbs_feature_div`) and the
 * page heading name the node.
 */
export function parseCategoryPage(html: string, ctx: CategoryParseContext): CategoryInit {
  return readCategoryPage(loadPlainPage(html), ctx);
}

/** parseCategoryPage on a loaded page. */
export function readCategoryPage(page: Page, ctx: CategoryParseContext): CategoryInit {
  const m = ctx.marketplace;
  const category: CategoryInit = { id: ctx.categoryId, url: categoryUrl(ctx.categoryId, m), subcategories: [] };
  const tree = readDepartmentTree(page, m);
  const path = tree?.path ?? readBreadcrumb(page);
  const name = tree?.name ?? path[path.length - 1] ?? cleanText(query(page, 'h1').first().text());
  if (name) {
    category.name = name;
    const levels = path[path.length - 1] === name ? path : [...path, name];
    category.breadcrumbPath = levels.join(' > ');
  }
  if (tree) {
    category.subcategories = tree.children.map((child) => ({ ...child, breadcrumbPath: `${category.breadcrumbPath} > ${child.name}` }));
  }
  category.productResults = parseResultList(page, { marketplace: m, page: ctx.page });
  return category;
}

/** The category page URL rebuilt on the marketplace from the node id. */
export function categoryUrl(categoryId: string, m: Marketplace): string {
  return `${m.origin}/b?node=${encodeURIComponent(categoryId)}`;
}

interface DepartmentTree {
  readonly name: string;
  /** Names from the root down to the current node, inclusive. */
  readonly path: string[];
  readonly children: CategoryRefInit[];
}

const INDENT = /s-navigation-indent-(\d+)/;

function readDepartmentTree(page: Page, m: Marketplace): DepartmentTree | undefined {
  const items = query(page, '#departments li').toArray().map((li) => ({ li, indent: Number(INDENT.exec(page.$(li).attr('class') ?? '')?.[1] ?? NaN) }));
  const current = items.findIndex(({ li }) => page.$(li).find('a').length === 0 && page.$(li).find('.a-text-bold').length > 0);
  if (current < 0) return undefined;
  const currentItem = items[current]!;
  const name = cleanText(page.$(currentItem.li).find('.a-text-bold').first().text());
  if (!name) return undefined;
  const ancestors = items
    .slice(0, current)
    .filter(({ indent }) => Number.isFinite(indent) && indent < currentItem.indent)
    .map(({ li }) => cleanText(page.$(li).text()))
    .filter((n): n is string => n !== undefined && !/^[‹<]/.test(n));
  const children: CategoryRefInit[] = [];
  for (const { li, indent } of items.slice(current + 1)) {
    if (Number.isFinite(indent) && Number.isFinite(currentItem.indent) && indent <= currentItem.indent) break;
    const child = childRef(page, li, m);
    if (child) children.push(child);
  }
  return { name, path: [...ancestors, name], children };
}

function childRef(page: Page, li: AnyNode, m: Marketplace): CategoryRefInit | undefined {
  const link = page.$(li).find('a[href]').first();
  const name = cleanText(link.text());
  const href = link.attr('href');
  if (!name || !href) return undefined;
  let id: string | undefined;
  try {
    id = nodeIdOf(new URL(href, m.origin));
  } catch {
    id = undefined;
  }
  return id ? { id, name, url: categoryUrl(id, m) } : undefined;
}

function readBreadcrumb(page: Page): string[] {
  return query(page, '#wayfinding-breadcrumbs_feature_div li a, .a-breadcrumb li a')
    .toArray()
    .map((a) => cleanText(page.$(a).text()))
    .filter((n): n is string => n !== undefined);
}
