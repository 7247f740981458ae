import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PageInfoSchema } from '@retail/contract';
import { selectAll, selectFirst, type Page } from '../common/page.js';
import { cleanText, textOf } from './dom.js';
import { readCount } from './locale.js';

export type PageInfoInit = MessageInitShape<typeof PageInfoSchema>;

/*
 * Pagination of a search-style page: the selected page and the last page number from the
 * pagination strip (2020+ `.s-pagination-*`, 2018–19 `#pagn`), the total from the result-count
 * line ("1-16 of 28 results", "1-48 von über 1.000 Ergebnissen", "32件の結果"). When the page shows
 * no strip, `requestedPage` is the current page and the page is taken as the only one.
 */
export function parsePageInfo(page: Page, requestedPage: number, shownResults: number): PageInfoInit {
  const find = (selector: string) => selectAll(page, undefined, selector);
  // `.first().text()`: the first match's text, '' without one.
  const firstText = (selector: string) => textOf(selectFirst(page, undefined, selector));
  const current =
    num(cleanText(firstText('.s-pagination-selected'))) ??
    num(cleanText(firstText('#pagn .pagnCur'))) ??
    num(cleanText(firstText('.a-pagination .a-selected'))) ??
    requestedPage;
  const pageNumbers = find('.s-pagination-item, #pagn .pagnLink, #pagn .pagnDisabled, .a-pagination li')
    .map((el) => num(cleanText(textOf(el))))
    .filter((n): n is number => n !== undefined);
  const hasNextLink = find('a.s-pagination-next').length > 0 || find('#pagnNextLink').length > 0 || find('.a-pagination .a-last a').length > 0;
  const lastShown = pageNumbers.length > 0 ? Math.max(...pageNumbers, current) : current;
  const totalPages = Math.max(lastShown, hasNextLink ? current + 1 : current);
  const info: PageInfoInit = {
    currentPage: BigInt(current),
    totalPages: BigInt(totalPages),
    hasNextPage: hasNextLink || current < totalPages,
    hasPrevPage: current > 1,
  };
  const total = readTotalResults(page);
  if (total !== undefined) info.totalResults = BigInt(total);
  else if (!hasNextLink && current === 1 && totalPages === 1) info.totalResults = BigInt(shownResults);
  return info;
}

function num(text: string | undefined): number | undefined {
  if (!text || !/^\d{1,4}$/.test(text)) return undefined;
  return Number(text);
}

const RESULT_COUNT_SELECTORS = [
  '[data-component-type="s-result-info-bar"] h1 span',
  '.s-breadcrumb .a-color-state, .s-desktop-toolbar h1 span',
  '#s-result-count',
  '#s-result-info-bar-content span',
];

/** The total from "1-16 of 28 results" / "1-48 von über 1.000 Ergebnissen" / "20 results". */
export function readTotalResults(page: Page): number | undefined {
  for (const selector of RESULT_COUNT_SELECTORS) {
    for (const el of selectAll(page, undefined, selector)) {
      const text = cleanText(textOf(el));
      if (!text || !/\d/.test(text)) continue;
      // The total is the number outside the "1-16" range; the quoted search term may hold digits.
      const outside = text
        .replace(/["“”„「」'][^"“”„「」']*["“”„「」']/g, ' ')
        .replace(/\d[\d.,]*\s*[-–]\s*\d[\d.,]*/g, ' ');
      const count = readCount(/\d[\d.,\u00a0\u202f]*/.exec(outside)?.[0]);
      if (count !== undefined) return count;
    }
  }
  return undefined;
}
