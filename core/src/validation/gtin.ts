import { type GtinKind, type ValidGtin, gs1CheckDigit, isValidIsbn10, readGtin } from '@retail/contract';
import { invalidArgument } from '../errors.js';

// The check itself lives in @retail/contract, declared by `check: PARAMETER_CHECK_GTIN`, so the
// gateways' shape checks run the same code; the core keeps the conversions it needs on top.
export { type GtinKind, type ValidGtin, gs1CheckDigit, isValidIsbn10 };

/**
 * Validates a GTIN parameter. Spaces and hyphens are stripped and the rest returned as given;
 * throws INVALID_ARGUMENT naming `field` otherwise.
 */
export function validateGtin(raw: string, field = 'gtin'): ValidGtin {
  const read = readGtin(raw, field);
  if ('message' in read) throw invalidArgument(read.message, field);
  return read;
}

/** ISBN-13 with the 978 prefix → its ISBN-10 (other prefixes have none). */
export function isbn13ToIsbn10(isbn13: string): string | undefined {
  if (!/^978\d{10}$/.test(isbn13)) return undefined;
  const body = isbn13.slice(3, 12);
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (body.charCodeAt(i) - 48) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

/** ISBN-10 → ISBN-13 (prefix 978). */
export function isbn10ToIsbn13(isbn10: string): string {
  const body = `978${isbn10.slice(0, 9)}`;
  return body + String(gs1CheckDigit(body));
}
