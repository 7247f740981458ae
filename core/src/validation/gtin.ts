import { RULE_MESSAGES } from '@retail/contract';
import { invalidArgument } from '../errors.js';

/** The GTIN kinds the service accepts (CONTRACT.md, lookup key). */
export type GtinKind = 'ISBN-10' | 'UPC-A' | 'EAN-8' | 'EAN-13' | 'GTIN-14';

export interface ValidGtin {
  /** As given, with spaces and hyphens removed. */
  readonly gtin: string;
  readonly kind: GtinKind;
}

const KIND_BY_LENGTH: Readonly<Record<number, GtinKind>> = { 8: 'EAN-8', 12: 'UPC-A', 13: 'EAN-13', 14: 'GTIN-14' };

/** GS1 mod-10: weights 3,1,3,... from the digit left of the check digit. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** ISBN-10 check: weights 10..1, sum divisible by 11; 'X' (either case) is 10 in the last place only. */
export function isValidIsbn10(value: string): boolean {
  if (!/^\d{9}[\dXx]$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = value[i]!;
    const digit = ch === 'X' || ch === 'x' ? 10 : ch.charCodeAt(0) - 48;
    sum += digit * (10 - i);
  }
  return sum % 11 === 0;
}

/**
 * Validates a GTIN parameter. Spaces and hyphens are stripped and the rest returned as given;
 * throws INVALID_ARGUMENT naming `field` otherwise.
 */
export function validateGtin(raw: string, field = 'gtin'): ValidGtin {
  const gtin = raw.replace(/[\s-]/g, '');
  if (gtin.length === 10) {
    if (!/^\d{9}[\dXx]$/.test(gtin)) throw invalidArgument(RULE_MESSAGES.isbn10(field), field);
    if (!isValidIsbn10(gtin)) throw invalidArgument(RULE_MESSAGES.checkDigit(field), field);
    return { gtin, kind: 'ISBN-10' };
  }
  const kind = KIND_BY_LENGTH[gtin.length];
  if (!kind || !/^\d+$/.test(gtin)) {
    throw invalidArgument(RULE_MESSAGES.gtinKind(field), field);
  }
  if (gs1CheckDigit(gtin.slice(0, -1)) !== gtin.charCodeAt(gtin.length - 1) - 48) {
    throw invalidArgument(RULE_MESSAGES.checkDigit(field), field);
  }
  return { gtin, kind };
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
