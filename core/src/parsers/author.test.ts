import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { authorIdFromHref, parseAuthorPage } from './author.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/author/${name}`, import.meta.url)), 'utf8');

describe('author page (project fixtures)', () => {
  const us = parseAuthorPage(fixture('stores-author-B0FXAUTH01-us.html'), { marketplace: marketplaceByCode('US'), authorId: 'B0FXAUTH01', page: 1 });

  it('reads the profile from the schema.org Person', () => {
    expect(us).toMatchObject({
      name: 'Jane Example',
      url: 'https://www.amazon.com/stores/author/B0FXAUTH01',
      imageUrl: 'https://m.media-amazon.com/images/S/amzn-author-media-prod/fx01author.jpg',
      biography: 'Jane Example writes literary fiction set on the Atlantic coast. Her novels have been translated into eleven languages. She lives in Maine.',
    });
  });

  it('lists the books with their contributors', () => {
    const books = us.bookResults!.results!;
    expect(books.map((b) => b.asin)).toEqual(['0316769487', 'B0FXBOOK02', 'B0FXBOOK03']);
    expect(books[0]).toMatchObject({ title: 'The River Keeper: A Novel', price: { value: 14.99 }, rating: 4.6, ratingsTotal: 12873n, isPrime: true });
    expect(books[1]!.authors).toEqual([
      { name: 'Jane Example', url: 'https://www.amazon.com/stores/author/B0FXAUTH01' },
      { name: 'John Coauthor', url: 'https://www.amazon.com/stores/author/B0FXAUTH02' },
    ]);
    // "$9.99 - $18.00" is a range: no price rather than a guess.
    expect(books[2]!.price).toBeUndefined();
    expect(us.bookResults!.pageInfo).toMatchObject({ currentPage: 1n, totalPages: 2n, hasNextPage: true });
  });

  it('reads a JP author page with yen prices and Japanese rating words', () => {
    const jp = parseAuthorPage(fixture('stores-author-B0FXAUTHJP-jp.html'), { marketplace: marketplaceByCode('JP'), authorId: 'B0FXAUTHJP', page: 1 });
    expect(jp.name).toBe('山田 太郎');
    expect(jp.bookResults!.results![1]).toMatchObject({ price: { value: 15592, currency: 'JPY', display: '￥15,592' }, rating: 3.9, ratingsTotal: 1024n });
    expect(jp.bookResults!.results![0]!.authors).toEqual([{ name: '山田 太郎', url: 'https://www.amazon.co.jp/stores/author/B0FXAUTHJP' }]);
  });

  it('falls back to the data attributes, paragraph by paragraph, without JSON-LD', () => {
    const html = fixture('stores-author-B0FXAUTH01-us.html').replace(/<script type="application\/ld\+json">.*?<\/script>/s, '');
    const page = parseAuthorPage(html, { marketplace: marketplaceByCode('US'), authorId: 'B0FXAUTH01', page: 1 });
    expect(page.name).toBe('Jane Example');
    expect(page.imageUrl).toMatch(/fx01author\.jpg$/);
    expect(page.biography).toBe('Jane Example writes literary fiction set on the Atlantic coast.\nHer novels have been translated into eleven languages. She lives in Maine.');
  });

  it('recognises author links in every known form', () => {
    expect(authorIdFromHref('/e/B000AQ0842/ref=dp_byline_cont_book_1')).toBe('B000AQ0842');
    expect(authorIdFromHref('/stores/Jane-Example/author/b0fxauth01?ref=ap_rdr')).toBe('B0FXAUTH01');
    expect(authorIdFromHref('/dp/B0FXBOOK02')).toBeUndefined();
  });
});
