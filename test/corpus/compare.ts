/**
 * The compare rules of the corpus README (../shared/corpus/README.md, Golden files), one function
 * each. Values are wire JSON (what renderData produces) on the actual side and golden JSON on the
 * expected side. An expected `null` is met by `null`, an omitted field or an empty list.
 */
export type CompareRule =
  | 'exact'
  | 'set'
  | 'subset'
  | 'imageIds'
  | 'approx0.01'
  | 'contains'
  | 'orderedAsins'
  | 'breadcrumbNames';

export const COMPARE_RULES: readonly CompareRule[] = [
  'exact', 'set', 'subset', 'imageIds', 'approx0.01', 'contains', 'orderedAsins', 'breadcrumbNames',
];

/** Trim and collapse white space (no-break spaces included, as `\s` covers them). */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function isNullish(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Deep equality after white-space normalisation of every string. */
export function deepEqualNormalized(expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return isNullish(actual);
  if (typeof expected === 'string') return typeof actual === 'string' && normalizeText(expected) === normalizeText(actual);
  if (typeof expected === 'number' || typeof expected === 'boolean') return expected === actual;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((e, i) => deepEqualNormalized(e, actual[i]));
  }
  if (typeof expected === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const keys = new Set([...Object.keys(e), ...Object.keys(a).filter((k) => !isNullish(a[k]))]);
    return [...keys].every((k) => deepEqualNormalized(e[k], a[k]));
  }
  return false;
}

/** Every key the expected object names matches (recursively); other actual keys are ignored. */
function partialMatch(expected: unknown, actual: unknown): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).every(([k, v]) => partialMatch(v, a[k]));
  }
  return deepEqualNormalized(expected, actual);
}

/** The image id of an image URL: the part after `/images/I/` up to the first `.`. */
export function imageId(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const match = /\/images\/I\/([^./]+)/.exec(url);
  return match?.[1];
}

function sameSet(expected: readonly unknown[], actual: readonly unknown[], eq: (e: unknown, a: unknown) => boolean): boolean {
  return expected.every((e) => actual.some((a) => eq(e, a))) && actual.every((a) => expected.some((e) => eq(e, a)));
}

/** Applies one compare rule to one field (orderedAsins positions are handled by the scorer). */
export function compareValues(rule: CompareRule, expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return isNullish(actual);
  switch (rule) {
    case 'exact':
    case 'orderedAsins':
      return deepEqualNormalized(expected, actual);
    case 'approx0.01':
      return typeof expected === 'number' && typeof actual === 'number' && Math.abs(expected - actual) <= 0.01 + 1e-9;
    case 'contains':
      return typeof expected === 'string' && typeof actual === 'string' && normalizeText(actual).includes(normalizeText(expected));
    case 'set':
      return Array.isArray(expected) && Array.isArray(actual) && sameSet(expected, actual, deepEqualNormalized);
    case 'subset':
      return Array.isArray(expected) && Array.isArray(actual) && expected.every((e) => actual.some((a) => partialMatch(e, a)));
    case 'imageIds': {
      if (Array.isArray(expected)) {
        return Array.isArray(actual) && sameSet(expected.map(imageId), actual.map(imageId), (e, a) => e !== undefined && e === a);
      }
      const id = imageId(expected);
      return id !== undefined && id === imageId(actual);
    }
    case 'breadcrumbNames': {
      if (!Array.isArray(expected) || !Array.isArray(actual)) return false;
      const names = actual.map((c) => (c !== null && typeof c === 'object' ? (c as { name?: unknown }).name : c));
      return deepEqualNormalized(expected, names);
    }
  }
}
