import { RULE_MESSAGES } from '@retail/contract';
import { invalidArgument } from '../errors.js';

const ASIN = /^[A-Za-z0-9]{10}$/;

/** An ASIN parameter (`^[A-Za-z0-9]{10}$`), returned upper case (docs/contract.md, Lookup key). */
export function validateAsin(raw: string, field = 'asin'): string {
  if (!ASIN.test(raw)) throw invalidArgument(RULE_MESSAGES.asin(field), field);
  return raw.toUpperCase();
}

export function isAsin(value: string): boolean {
  return ASIN.test(value);
}
