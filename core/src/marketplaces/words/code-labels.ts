/**
 * Product-detail labels of the product codes: the codes' own names, which every marketplace language
 * prints as they are. A language adds its local spellings by overriding a key after the spread.
 */
export const CODE_LABELS = {
  isbn10: ['ISBN-10'],
  isbn13: ['ISBN-13'],
  upc: ['UPC'],
  ean: ['EAN'],
  asin: ['ASIN'],
} as const satisfies Record<string, readonly string[]>;
