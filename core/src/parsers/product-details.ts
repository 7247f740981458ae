import { cleanText, visibleText, type AnyNode, type CheerioAPI } from './common/dom.js';

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

/** Label text without the trailing colon and the direction marks around it. */
function cleanLabel(text: string | undefined): string | undefined {
  const out = cleanText(text)?.replace(/\s*[:：]\s*$/u, '').trim();
  return out ? out : undefined;
}

function tableRow($: CheerioAPI, tr: AnyNode): DetailRow | undefined {
  const row = $(tr);
  const th = row.children('th');
  const tds = row.children('td');
  let name: string | undefined;
  let valueCell;
  if (th.length > 0 && tds.length > 0) {
    name = cleanLabel(visibleText($, th.first()));
    valueCell = tds.first();
  } else if (tds.length >= 2) {
    name = cleanLabel(visibleText($, tds.first()));
    valueCell = tds.eq(1);
  } else {
    return undefined;
  }
  const value = valueCell ? visibleText($, valueCell) : undefined;
  return name && value ? { name, value } : undefined;
}

function listRow($: CheerioAPI, li: AnyNode): DetailRow | undefined {
  const item = $(li);
  // Nested lists (best-sellers sub-ranks) belong to their parent row.
  if (item.parents('li').length > 0) return undefined;
  const label = item.find('.a-text-bold, b').first();
  if (label.length === 0) return undefined;
  const name = cleanLabel(visibleText($, label));
  const copy = item.clone();
  copy.find('script, style, noscript').remove();
  copy.find('.a-text-bold, b').first().remove();
  const value = cleanText(copy.text())?.replace(/^[:：]\s*/u, '');
  return name && value ? { name, value } : undefined;
}

/** Every technical-details row of a product page, in page order, one per name. */
export function readDetailRows($: CheerioAPI): DetailRow[] {
  const rows: DetailRow[] = [];
  const seen = new Set<string>();
  const add = (row: DetailRow | undefined) => {
    if (!row || row.name.length > 80 || seen.has(row.name.toLowerCase())) return;
    seen.add(row.name.toLowerCase());
    rows.push(row);
  };
  for (const selector of TABLE_ROWS) for (const tr of $(selector).toArray()) add(tableRow($, tr));
  for (const selector of LIST_ROWS) for (const li of $(selector).toArray()) add(listRow($, li));
  return rows;
}

/** The value of the first row whose name is one of `labels` (compared case-insensitively). */
export function detailValue(rows: readonly DetailRow[], labels: readonly string[]): string | undefined {
  const wanted = new Set(labels.map((l) => l.toLowerCase()));
  return rows.find((r) => wanted.has(r.name.toLowerCase()))?.value;
}
