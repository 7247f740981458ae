import { cleanText, isHiddenContent, visibleText, type AnyNode, type Element } from './common/dom.js';
import { isTag, textWithout } from './common/node-reads.js';
import { selectAll, type Page } from './common/page.js';

/** One technical-details row as the page shows it. */
export interface DetailRow {
  name: string;
  value: string;
}

/*
 * Where product pages keep their "name: value" rows. The marketplace has used many layouts over the
 * years and a page often carries several at once (technical details, additional information,
 * product overview); all are read and merged, first occurrence of a name winning.
 */
const TABLE_ROWS = [
  '#productDetails_techSpec_section_1 tr',
  '#productDetails_techSpec_section_2 tr',
  '#productDetails_detailBullets_sections1 tr',
  '#technicalSpecifications_section_1 tr',
  '#technicalSpecifications_section_2 tr',
  '#productOverview_feature_div tr',
  '#prodDetails tr',
  'table.pdTab tr',
  '#poExpander tr',
  'table.product-details-meta tr',
];
const LIST_ROWS = [
  '#detailBullets_feature_div li',
  '#detail_bullets_id li',
  '#detail-bullets li',
  '#productDetailsTable li',
  '#detailBulletsWrapper_feature_div li',
];

/*
 * The apparel layout (2024+) has no technical-details table: its "Product details" facts (fabric
 * type, care instructions, origin, closure) are a grid of rows in `#productFactsDesktopExpander`,
 * each a left column naming the fact and a right column giving it. Read after the tables and lists,
 * so the rows of a page that also has those keep their values.
 */
const FACT_ROWS = '#productFactsDesktopExpander .product-facts-detail';

/** Label text without the trailing colon and the direction marks around it. */
function cleanLabel(text: string | undefined): string | undefined {
  const out = cleanText(text)?.replace(/\s*[:：]\s*$/u, '').trim();
  return out ? out : undefined;
}

/** The element children of `el` named `name`. */
function childrenNamed(el: AnyNode, name: string): Element[] {
  const out: Element[] = [];
  for (const child of (el as Element).children) if (isTag(child) && child.name === name) out.push(child);
  return out;
}

function tableRow(tr: AnyNode): DetailRow | undefined {
  const th = childrenNamed(tr, 'th');
  const tds = childrenNamed(tr, 'td');
  let name: string | undefined;
  let valueCell;
  if (th.length > 0 && tds.length > 0) {
    name = cleanLabel(visibleText(th[0]));
    valueCell = tds[0];
  } else if (tds.length >= 2) {
    name = cleanLabel(visibleText(tds[0]));
    valueCell = tds[1];
  } else {
    return undefined;
  }
  const value = visibleText(valueCell);
  return name && value ? { name, value } : undefined;
}

/** Below `li` (exclusive) and above `el` (inclusive) there is a script, style or noscript. */
function insideHidden(el: Element, li: AnyNode): boolean {
  for (let node: AnyNode | null = el; node && node !== li; node = node.parent) if (isTag(node) && isHiddenContent(node)) return true;
  return false;
}

function factRow(page: Page, row: AnyNode): DetailRow | undefined {
  const name = cleanLabel(visibleText(selectAll(page, row, '.a-col-left')[0]));
  const value = visibleText(selectAll(page, row, '.a-col-right')[0]);
  return name && value ? { name, value } : undefined;
}

function listRow(page: Page, li: AnyNode): DetailRow | undefined {
  // Nested lists (best-sellers sub-ranks) belong to their parent row.
  for (let node = li.parent; node && isTag(node); node = node.parent) if (node.name === 'li') return undefined;
  const labels = selectAll(page, li, '.a-text-bold, b') as Element[];
  if (labels.length === 0) return undefined;
  const name = cleanLabel(visibleText(labels[0]));
  // The value is the row's visible text without its first visible label.
  const shown = labels.find((el) => !insideHidden(el, li));
  const value = cleanText(textWithout(li, (el) => el === shown || isHiddenContent(el)))?.replace(/^[:：]\s*/u, '');
  return name && value ? { name, value } : undefined;
}

/** Every technical-details row of a product page, in page order, one per name. */
export function readDetailRows(page: Page): DetailRow[] {
  const rows: DetailRow[] = [];
  const seen = new Set<string>();
  const add = (row: DetailRow | undefined) => {
    if (!row || row.name.length > 80 || seen.has(row.name.toLowerCase())) return;
    seen.add(row.name.toLowerCase());
    rows.push(row);
  };
  for (const selector of TABLE_ROWS) for (const tr of selectAll(page, undefined, selector)) add(tableRow(tr));
  for (const selector of LIST_ROWS) for (const li of selectAll(page, undefined, selector)) add(listRow(page, li));
  for (const row of selectAll(page, undefined, FACT_ROWS)) add(factRow(page, row));
  return rows;
}

/** The value of the first row whose name is one of `labels` (compared case-insensitively). */
export function detailValue(rows: readonly DetailRow[], labels: readonly string[]): string | undefined {
  const wanted = new Set(labels.map((l) => l.toLowerCase()));
  return rows.find((r) => wanted.has(r.name.toLowerCase()))?.value;
}
