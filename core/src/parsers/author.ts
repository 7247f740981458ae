import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AuthorRefSchema, AuthorSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/types.js';
import { cleanText, tryJson, type AnyNode } from './common/dom.js';
import { firstAttr, firstVisibleText, loadPlainPage, query, type Page } from './common/page.js';
import { parseResultList } from './search.js';

export type AuthorInit = MessageInitShape<typeof AuthorSchema>;
type AuthorRefInit = MessageInitShape<typeof AuthorRefSchema>;

export interface AuthorParseContext {
  readonly marketplace: Marketplace;
  /** The author's identifier the request named (upper case). */
  readonly authorId: string;
  readonly page: number;
}

/*
 * An author page (`/stores/author/<ID>`, 2022+ "author store"; `/e/<ID>` before). Sources, most
 * stable first: the page's schema.org Person (JSON-LD: name, image, description), then the store's
 * data attributes (`data-testid="author-name|author-image|author-bio"`), then the older author
 * page's ids (`#ap-author-name`, `#ap-image`, `#ap-bio`). Books are the result cards the store's
 * "all formats" grid shares with search pages; each card's contributors are its links to author
 * pages (`/e/ID`, `/stores/…/author/ID`).
 */
export function parseAuthorPage(html: string, ctx: AuthorParseContext): AuthorInit {
  return readAuthorPage(loadPlainPage(html), ctx);
}

/** parseAuthorPage on a loaded page. */
export function readAuthorPage(page: Page, ctx: AuthorParseContext): AuthorInit {
  const m = ctx.marketplace;
  const person = findPerson(page);
  const author: AuthorInit = { url: authorUrl(ctx.authorId, m) };
  const name = str(person?.name) ?? firstVisibleText(page, ['[data-testid="author-name"]', '#ap-author-name h1', '#ap-author-name', 'h1.author-name']);
  if (name) author.name = name;
  const image = imageOf(person?.image) ?? firstAttr(page, undefined, ['[data-testid="author-image"]', '#ap-image img', 'img.author-image'], 'src');
  if (image) author.imageUrl = image;
  const biography = str(person?.description) ?? paragraphs(page, ['[data-testid="author-bio"]', '#ap-bio .a-expander-content', '#ap-bio']);
  if (biography) author.biography = biography;
  author.bookResults = parseResultList(page, ctx, (book, card) => {
    book.authors = contributorsOf(page, card, m);
  });
  return author;
}

/** The author page URL rebuilt on the marketplace from the identifier. */
export function authorUrl(authorId: string, m: Marketplace): string {
  return `${m.origin}/stores/author/${authorId}`;
}

/** A block's paragraphs, one per line (its plain text when it has no paragraph elements). */
function paragraphs(page: Page, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    const block = query(page, selector).first();
    if (block.length === 0) continue;
    const parts = block.find('p').toArray().map((p) => cleanText(page.$(p).text())).filter((t): t is string => t !== undefined);
    const text = parts.length > 0 ? parts.join('\n') : firstVisibleText(page, [selector]);
    if (text) return text;
  }
  return undefined;
}

const str = (v: unknown) => (typeof v === 'string' ? cleanText(v) : undefined);

function imageOf(v: unknown): string | undefined {
  if (typeof v === 'string') return cleanText(v);
  if (Array.isArray(v)) return imageOf(v[0]);
  if (v && typeof v === 'object' && 'url' in v) return str(v.url);
  return undefined;
}

/** The schema.org Person block (top level or inside `@graph`). */
function findPerson(page: Page): Record<string, unknown> | undefined {
  for (const el of query(page, 'script[type="application/ld+json"]').toArray()) {
    const json = tryJson<unknown>(page.$(el).text().trim());
    const items = Array.isArray(json) ? json : json && typeof json === 'object' && '@graph' in json ? (json as { '@graph': unknown[] })['@graph'] : [json];
    for (const item of items ?? []) {
      if (item && typeof item === 'object' && (item as { '@type'?: unknown })['@type'] === 'Person') return item as Record<string, unknown>;
    }
  }
  return undefined;
}

/** Author id in a link: `/e/B000AQ0842`, `/stores/Name/author/B000AQ0842`, `/stores/author/B000AQ0842`. */
export function authorIdFromHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  return /\/(?:e|author)\/([A-Z0-9]{10})(?:[/?#]|$)/i.exec(href)?.[1]?.toUpperCase();
}

/** A book card's contributors: its links to author pages, each author once, in card order. */
function contributorsOf(page: Page, card: AnyNode, m: Marketplace): AuthorRefInit[] {
  const seen = new Set<string>();
  const authors: AuthorRefInit[] = [];
  for (const link of page.$(card).find('a[href]').toArray()) {
    const id = authorIdFromHref(page.$(link).attr('href'));
    const name = cleanText(page.$(link).text());
    if (!id || !name || seen.has(id)) continue;
    seen.add(id);
    authors.push({ name, url: authorUrl(id, m) });
  }
  return authors;
}
