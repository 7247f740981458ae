/**
 * The one table of parameter messages. Every 400 about a parameter, raised by a gateway's shape
 * check or by the core's validation, on any interface, is rendered here, so the same broken rule
 * reads the same everywhere (test/contract/rules.test.ts proves it per rule and interface).
 * Messages name parameters as clients write them (`searchTerm`), never the proto field name.
 */

/** "asin, url or gtin" */
function listNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

export const RULE_MESSAGES = {
  // Declared rules (the `(retail.v1.parameter)` option).
  required: (name: string) => `${name} is required`,
  // The pattern is published in every API description anyway, so naming it helps and hides nothing;
  // "\S" (not blank) reads better in words.
  pattern: (name: string, pattern: string) => (pattern === '\\S' ? `${name} must not be blank` : `${name} must match ${pattern}`),
  minLength: (name: string, min: number) => (min === 1 ? `${name} must not be empty` : `${name} must be at least ${min} characters long`),
  maxLength: (name: string, max: number) => `${name} must be at most ${max} characters long`,
  range: (name: string, min: number | undefined, max: number | undefined) =>
    min !== undefined && max !== undefined ? `${name} must be between ${min} and ${max}` : min !== undefined ? `${name} must be at least ${min}` : `${name} must be at most ${max}`,
  enumValue: (name: string, values: readonly string[]) => `${name} must be one of ${values.join(', ')}`,
  noneOfGroup: (names: readonly string[]) => `${listNames(names)} must be provided`,
  severalOfGroup: (names: readonly string[]) => `provide exactly one of ${listNames(names)}`,
  unknownParameter: (name: string) => `unknown parameter ${name}`,
  /** Not an error: the sentence the API descriptions add to each member of a group. */
  groupDescription: (names: readonly string[]) => `Give exactly one of ${listNames(names)}.`,

  // Types: what a typed request message cannot get wrong but a query string or JSON value can.
  string: (name: string) => `${name} must be a string`,
  integer: (name: string) => `${name} must be an integer`,
  number: (name: string) => `${name} must be a number`,
  boolean: (name: string) => `${name} must be true or false`,
  list: (name: string) => `${name} must be a list`,
  object: (name: string) => `${name} must be an object`,
  givenOnce: (name: string) => `${name} must be given once`,
  // Batches: how many items, and an item that names no operation the batch can run.
  listLength: (name: string, min: number, max: number) => `${name} must hold between ${min} and ${max} entries`,
  batchItemOperation: () => 'the item names no operation',

  // Meaning: identifiers and URLs (checked by the core, the authority on them).
  asin: (name: string) => `${name} must be 10 letters or digits`,
  gtinKind: (name: string) => `${name} must be an ISBN-10, UPC-A, EAN-8, EAN-13 or GTIN-14`,
  isbn10: (name: string) => `${name} is not a valid ISBN-10`,
  checkDigit: (name: string) => `${name} has an invalid check digit`,
  httpsUrl: (name: string) => `${name} must be an https URL on a supported marketplace host`,
  urlCharacters: (name: string) => `${name} contains characters not allowed in a URL`,
  urlCredentials: (name: string) => `${name} must not contain user credentials`,
  urlPort: (name: string) => `${name} must not name a port`,
  urlHost: (name: string) => `${name} must be on a supported marketplace host`,
  urlInvalid: (name: string) => `${name} is not a valid URL`,
  productUrlPath: (name: string) => `${name} must be a product URL with the ASIN in its path, like /dp/B000000000`,
  bestSellersUrlPath: (name: string) => `${name} must be a best-sellers URL, like /gp/bestsellers/electronics`,
  bestSellersCategoryPath: (name: string) => `${name} has an unexpected best-sellers category path`,
  domainMismatch: (domain: string, urlDomain: string, host: string) => `domain ${domain} does not match the url's marketplace ${urlDomain} (${host})`,
  notLessThan: (name: string, other: string) => `${name} must not be less than ${other}`,
  // Answers sized for a model (MCP): a cursor is only ever one the service gave.
  cursor: (name: string) => `${name} must be the nextCursor of an earlier answer`,
  // Field selection: a dotted path that names no field of the operation's record.
  unknownField: (name: string, path: string) => `${name} names no field ${path} of the record`,
} as const;

export type RuleKind = keyof typeof RULE_MESSAGES;
