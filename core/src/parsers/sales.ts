import type { Marketplace } from '../marketplaces/types.js';
import { loadIndexedPage, query, type Page } from './common/page.js';
import { cleanText } from './results/dom.js';
import { readCount } from './results/locale.js';

/** One best-sellers rank of a product ("#5,211 in Cell Phones & Accessories"). */
export interface BestSellersRank {
  readonly rank: number;
  readonly category: string;
  /** The best-sellers category id from the rank's link (`wireless`, `music/264886`), when linked. */
  readonly categoryId: string | undefined;
}

/*
 * The best-sellers ranks of a product page, top-level category first. Three layouts: the details
 * table (`th` = the rank label, 2020+), the detail bullets list, and `#SalesRank` (2016–2019). The
 * label comes from the marketplace's locale table; each rank line is "#N in Category", "Nr. N in …",
 * "N en …", "n. N in …", "nº N en …", "N位Category".
 */
export function parseBestSellersRanks(html: string, m: Marketplace): BestSellersRank[] {
  return readBestSellersRanks(loadIndexedPage(html), m);
}

/** parseBestSellersRanks on a loaded page. */
export function readBestSellersRanks(page: Page, m: Marketplace): BestSellersRank[] {
  const block = rankBlock(page, m);
  if (!block) return [];
  const lines = block.lines;
  const out: BestSellersRank[] = [];
  for (const line of lines) {
    // Some layouts run every rank into one text: "#280 in Industrial & Scientific #3 in Duct Tape".
    const parts = line.text.split(/\s(?=(?:#|Nr\.?\s|nº\s?|Nº\s?|n°\s?|n\.\s)\d)/);
    parts.forEach((part, i) => {
      const rank = parseRankLine(part);
      if (rank) out.push({ ...rank, categoryId: i === 0 ? line.categoryId : undefined });
    });
  }
  return out;
}

interface RankLine {
  text: string;
  categoryId: string | undefined;
}

function rankBlock(page: Page, m: Marketplace): { lines: RankLine[] } | undefined {
  const labels = m.words.bestSellersRankLabels.map((l) => l.toLowerCase());
  const isLabel = (text: string | undefined) => !!text && labels.some((l) => text.toLowerCase().replace(/[:\s\u200f\u200e]+$/g, '').includes(l));
  // Table layout: <tr><th>Best Sellers Rank</th><td><ul><li>…</li></ul></td></tr>
  for (const th of query(page, 'th').toArray()) {
    if (!isLabel(cleanText(page.$(th).text()))) continue;
    const td = page.$(th).nextAll('td').first();
    const items = td.find('li').toArray();
    const nodes = items.length > 0 ? items : [td.get(0)!];
    return { lines: nodes.map((n) => ({ text: cleanText(page.$(n).text()) ?? '', categoryId: linkCategory(page, n) })) };
  }
  // #SalesRank and detail bullets: "<b>Label:</b> Nr. 109 in X (…) <ul class=zg_hrsr><li>…</li></ul>"
  const holders = [...query(page, '#SalesRank').toArray(), ...query(page, '#detailBulletsWrapper_feature_div li, #detailBullets_feature_div li, #detail-bullets li').toArray()];
  for (const holder of holders) {
    const $h = page.$(holder);
    const label = cleanText($h.find('b, .a-text-bold').first().text());
    if (!isLabel(label)) continue;
    const clone = $h.clone();
    clone.find('ul, b, .a-text-bold, style, script').remove();
    const first: RankLine = { text: cleanText(clone.text()) ?? '', categoryId: linkCategory(page, holder) };
    const rest = $h.find('ul li').toArray().map((li) => ({ text: cleanText(page.$(li).text()) ?? '', categoryId: linkCategory(page, li) }));
    return { lines: [first, ...rest] };
  }
  return undefined;
}

function linkCategory(page: Page, node: unknown): string | undefined {
  const href = page.$(node as never).find('a[href*="/bestsellers/"]').first().attr('href');
  const path = href ? /\/gp\/bestsellers\/([^?#]*)/.exec(href)?.[1] : undefined;
  if (!path) return undefined;
  const parts = path.split('/').filter((p) => p && !p.startsWith('ref='));
  return parts.length > 0 ? parts.join('/') : undefined;
}

/** "#5,211 in Cell Phones & Accessories (See Top 100 …)" → { rank: 5211, category: "Cell Phones & Accessories" }. */
export function parseRankLine(text: string): { rank: number; category: string } | undefined {
  const cleaned = text.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  const jp = /(\d[\d,.]*)\s*位\s*(.+)$/.exec(cleaned);
  const m = jp ?? /(?:#|Nr\.?|n\.|nº|n°|N\.º|Nº)?\s*(\d[\d.,\u00a0\u202f ]*\d|\d)\s+(?:in|en|em|dans|w kategorii|w)\s+(.+)$/i.exec(cleaned);
  if (!m) return undefined;
  const rank = readCount(m[1]);
  const category = cleanText(m[2]?.replace(/^[-–:\s]+/, ''));
  if (rank === undefined || rank < 1 || !category) return undefined;
  return { rank, category };
}
