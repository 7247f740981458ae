/**
 * The GTIN check that `(retail.v1.parameter).check = PARAMETER_CHECK_GTIN` declares: one
 * implementation, run by the core (which also needs the kind) and by the gateways' shape checks.
 */
import { RULE_MESSAGES } from './rule-messages.js';

/** The GTIN kinds the service accepts (docs/contract.md, Lookup key). */
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

/** A GTIN parameter named `name`: its stripped form and kind, or the message saying what is wrong. */
export function readGtin(raw: string, name: string): ValidGtin | { readonly message: string } {
  const gtin = raw.replace(/[\s-]/g, '');
  if (gtin.length === 10) {
    if (!/^\d{9}[\dXx]$/.test(gtin)) return { message: RULE_MESSAGES.isbn10(name) };
    if (!isValidIsbn10(gtin)) return { message: RULE_MESSAGES.checkDigit(name) };
    return { gtin, kind: 'ISBN-10' };
  }
  const kind = KIND_BY_LENGTH[gtin.length];
  if (!kind || !/^\d+$/.test(gtin)) return { message: RULE_MESSAGES.gtinKind(name) };
  if (gs1CheckDigit(gtin.slice(0, -1)) !== gtin.charCodeAt(gtin.length - 1) - 48) return { message: RULE_MESSAGES.checkDigit(name) };
  return { gtin, kind };
}
