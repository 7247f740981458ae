/**
 * The operator view's query parameters, checked before any call to the watcher: a marketplace the
 * proto declares, a page kind the archive may hold, an identifier, and times in ISO 8601 with their
 * offset (a time without one would be read in the server's zone, not the operator's). Every problem
 * is a field error in one 400 envelope.
 */
import { DomainSchema, wireEnumValues } from '@retail/contract';
import { ARCHIVED_PAGE_KINDS } from '@retail/contract/page-archive-handoff';
import type { ArchivedPageListQuery, ArchivedPageQuery } from './archive-api.js';
import { ValidationError, type FieldProblem } from './errors.js';

export const MARKETPLACES: readonly string[] = wireEnumValues(DomainSchema);
export const PAGE_KINDS: readonly string[] = ARCHIVED_PAGE_KINDS;
/** The watcher's bound on one listing (proto: at most 200). */
export const MAX_LIST_LIMIT = 200;
// The watcher's bound (archived-page-service.ts).
const IDENTIFIER_MAX_LENGTH = 300;
// A date, or a date and time with its offset: 2026-11-28, 2026-11-28T10:00Z, 2026-11-28T10:00:05.123+01:00.
const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;

type Query = Record<string, unknown>;

/** Present but not one text value: checkParameters has said so already. */
const isGivenTwice = (query: Query, name: string) => query[name] !== undefined && typeof query[name] !== 'string';

const text = (query: Query, name: string): string | undefined => {
  const value = query[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** Unknown names, and known ones given twice (`?at=…&at=…`, `at[x]=…`), each a problem of its own. */
function checkParameters(query: Query, allowed: readonly string[], problems: FieldProblem[]) {
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) problems.push({ path: [name], message: `Unknown parameter "${name}"` });
    else if (typeof value !== 'string') problems.push({ path: [name], message: `Give ${name} once, as text` });
  }
}

function oneOf(query: Query, name: string, allowed: readonly string[], label: string, problems: FieldProblem[], normalise = (v: string) => v): string {
  const value = text(query, name);
  if (value === undefined && isGivenTwice(query, name)) return '';
  if (value === undefined) problems.push({ path: [name], message: `${label} is required` });
  else if (!allowed.includes(normalise(value))) problems.push({ path: [name], message: `${label} must be one of ${allowed.join(', ')}` });
  return value === undefined ? '' : normalise(value);
}

function identifierOf(query: Query, problems: FieldProblem[]): string {
  const value = text(query, 'identifier');
  if (value === undefined && isGivenTwice(query, 'identifier')) return '';
  if (value === undefined) problems.push({ path: ['identifier'], message: 'Identifier is required (the ASIN of a product page, the query of a search page…)' });
  else if (value.length > IDENTIFIER_MAX_LENGTH || !PRINTABLE.test(value)) {
    problems.push({ path: ['identifier'], message: `Identifier must be printable text of at most ${IDENTIFIER_MAX_LENGTH} characters` });
  }
  return value ?? '';
}

function timeOf(query: Query, name: string, problems: FieldProblem[]): Date | undefined {
  const value = text(query, name);
  if (value === undefined) return undefined;
  const at = TIME_PATTERN.test(value) ? new Date(value) : undefined;
  if (!at || Number.isNaN(at.getTime())) {
    problems.push({ path: [name], message: `${name} must be an ISO 8601 date or time with its offset (2026-11-28T10:00:00Z)` });
    return undefined;
  }
  return at;
}

function page(query: Query, problems: FieldProblem[]) {
  const marketplace = oneOf(query, 'marketplace', MARKETPLACES, 'Marketplace', problems, (v) => v.toUpperCase());
  const kind = oneOf(query, 'kind', PAGE_KINDS, 'Kind', problems, (v) => v.toLowerCase());
  return { marketplace, kind, identifier: identifierOf(query, problems) };
}

/** `GET operator/page` and its raw download: marketplace, kind, identifier, at (and the download's page id). */
export function parsePageQuery(query: Query): ArchivedPageQuery & { readonly id?: string } {
  const problems: FieldProblem[] = [];
  checkParameters(query, ['marketplace', 'kind', 'identifier', 'at', 'id'], problems);
  const base = page(query, problems);
  const at = timeOf(query, 'at', problems);
  const id = text(query, 'id');
  if (id !== undefined && !/^[0-9a-f-]{36}$/i.test(id)) problems.push({ path: ['id'], message: 'id must be a page id (a UUID)' });
  if (problems.length > 0) throw new ValidationError(problems);
  return { ...base, ...(at ? { at } : {}), ...(id ? { id: id.toLowerCase() } : {}) };
}

/** `GET operator/pages`: marketplace, kind, identifier, from, to, limit. */
export function parseListQuery(query: Query): ArchivedPageListQuery {
  const problems: FieldProblem[] = [];
  checkParameters(query, ['marketplace', 'kind', 'identifier', 'from', 'to', 'limit'], problems);
  const base = page(query, problems);
  const from = timeOf(query, 'from', problems);
  const to = timeOf(query, 'to', problems);
  if (from && to && from > to) problems.push({ path: ['from'], message: 'from must not be after to' });
  const rawLimit = text(query, 'limit');
  const limit = rawLimit === undefined ? undefined : Number(rawLimit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIST_LIMIT)) {
    problems.push({ path: ['limit'], message: `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}` });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { ...base, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(limit ? { limit } : {}) };
}
