import { tryJson } from './common/dom.js';
import { attrOf } from './common/node-reads.js';
import { selectFirst, type Page } from './common/page.js';

const MAIN_IMAGE = ['#landingImage', '#imgBlkFront', '#ebooksImgBlkFront', '#main-image', '#imgTagWrapperId img', '#js-masrw-main-image'];

function isImageUrl(value: string | undefined): value is string {
  return value !== undefined && /^https?:\/\//.test(value);
}

/** Keys of `data-a-dynamic-image` ({url: [w, h]}), largest first. */
function dynamicImages(attr: string | undefined): string[] {
  const sizes = tryJson<Record<string, [number, number]>>(attr);
  if (!sizes || typeof sizes !== 'object') return [];
  return Object.entries(sizes)
    .filter(([url]) => isImageUrl(url))
    .sort(([, a], [, b]) => (b?.[0] ?? 0) * (b?.[1] ?? 0) - (a?.[0] ?? 0) * (a?.[1] ?? 0))
    .map(([url]) => url);
}

/** The primary image: the hi-res attribute, else the largest dynamic size, else the src. */
export function readMainImage(page: Page): string | undefined {
  for (const selector of MAIN_IMAGE) {
    const img = selectFirst(page, undefined, selector);
    if (!img) continue;
    const candidates = [attrOf(img, 'data-old-hires'), ...dynamicImages(attrOf(img, 'data-a-dynamic-image')), attrOf(img, 'data-a-hires'), attrOf(img, 'src')];
    const found = candidates.find(isImageUrl);
    if (found) return found;
  }
  return undefined;
}

/**
 * All gallery images. The image block's script carries them as JSON (`'colorImages': { 'initial':
 * [{hiRes, large, ...}] }`); pages without it give the main image's sizes.
 */
export function readImageUrls(page: Page, main: string | undefined): string[] {
  const { html } = page;
  const urls: string[] = [];
  const at = html.indexOf("'colorImages'");
  if (at >= 0) {
    const start = html.indexOf('[', html.indexOf("'initial'", at));
    const end = start >= 0 ? matchingBracket(html, start) : -1;
    const list = end > start ? tryJson<Array<{ hiRes?: string | null; large?: string | null }>>(html.slice(start, end + 1)) : undefined;
    for (const image of list ?? []) {
      const url = image.hiRes ?? image.large ?? undefined;
      if (isImageUrl(url)) urls.push(url);
    }
  }
  if (urls.length === 0 && main) urls.push(main);
  return [...new Set(urls)];
}

/** Index of the bracket closing the one at `start` (strings respected); -1 when unbalanced. */
function matchingBracket(text: string, start: number): number {
  let depth = 0;
  let inString: string | undefined;
  const limit = Math.min(text.length, start + 200_000);
  for (let i = start; i < limit; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === inString) inString = undefined;
    } else if (c === '"' || c === "'") inString = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
