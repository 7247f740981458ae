import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMPARE_RULES, compareValues, type CompareRule } from './compare.js';
import type { CorpusEntry } from '../replay/corpus-index.js';

/** A golden file (../shared/corpus/README.md, Golden files). */
export interface Golden {
  readonly id: string;
  readonly operation: string;
  readonly domain: string;
  readonly request: Record<string, unknown>;
  readonly expect?: Record<string, unknown>;
  readonly expectError?: { status: number; reason?: string };
  readonly compare?: Record<string, string>;
  readonly notes?: string;
}

export interface CorpusCase {
  readonly entry: CorpusEntry;
  readonly golden: Golden;
  /** Absolute path of the page. */
  readonly pageFile: string;
}

/** What the service answered for a case: the wire `data` of a success, or the error it raised. */
export type ActualOutcome =
  | { readonly data: Record<string, unknown> }
  | { readonly error: { readonly status: number; readonly reason?: string; readonly message?: string } };

/** One scored field. `field` is the compare key as written (the aggregation key); `path` is expanded. */
export interface FieldScore {
  readonly caseId: string;
  readonly domain: string;
  readonly operation: string;
  readonly field: string;
  readonly path: string;
  readonly rule: CompareRule;
  readonly ok: boolean;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** The corpus directory from RETAIL_CORPUS, or a reason why corpus tests cannot run. */
export function corpusDirFromEnv(env: NodeJS.ProcessEnv = process.env): { dir: string } | { skip: string } {
  const raw = env.RETAIL_CORPUS;
  if (!raw) return { skip: 'RETAIL_CORPUS is not set (point it at ../shared/corpus to run corpus tests)' };
  const dir = resolve(raw);
  if (!existsSync(join(dir, 'index.json'))) return { skip: `RETAIL_CORPUS=${raw} has no index.json` };
  return { dir };
}

/** Loads the entries of `dir/index.json` whose operation passes `filter`, each with its golden. */
export function loadCorpusCases(dir: string, filter: (entry: CorpusEntry) => boolean = () => true): CorpusCase[] {
  const entries = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as CorpusEntry[];
  return entries
    .filter((entry) => entry.golden && filter(entry))
    .map((entry) => ({
      entry,
      golden: JSON.parse(readFileSync(join(dir, 'golden', entry.golden as string), 'utf8')) as Golden,
      pageFile: join(dir, entry.page),
    }));
}

type PathSegment = { key: string } | { all: true } | { from: number; to: number };

/** Splits `a.b[*].c[0..4].d` into keys and index selectors. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  // Keys are separated by dots; selectors sit in brackets (which may themselves hold `..`).
  for (const token of path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? []) {
    if (!token.startsWith('[')) {
      segments.push({ key: token });
      continue;
    }
    const inner = token.slice(1, -1);
    if (inner === '*') segments.push({ all: true });
    else if (/^\d+\.\.\d+$/.test(inner)) {
      const [from, to] = inner.split('..').map(Number) as [number, number];
      segments.push({ from, to });
    } else if (/^\d+$/.test(inner)) segments.push({ from: Number(inner), to: Number(inner) });
    else throw new Error(`bad index ${token} in ${path}`);
  }
  return segments;
}

/** Expands a compare path over the expected value: one concrete path per expected index. */
function expand(segments: PathSegment[], expected: unknown, prefix = ''): { path: string; concrete: (string | number)[] }[] {
  if (segments.length === 0) return [{ path: prefix, concrete: [] }];
  const [head, ...rest] = segments as [PathSegment, ...PathSegment[]];
  if ('key' in head) {
    const next = expected !== null && typeof expected === 'object' ? (expected as Record<string, unknown>)[head.key] : undefined;
    return expand(rest, next, prefix ? `${prefix}.${head.key}` : head.key).map((x) => ({ ...x, concrete: [head.key, ...x.concrete] }));
  }
  if (!Array.isArray(expected)) return [];
  const indices = expected.map((_, i) => i).filter((i) => 'all' in head || (i >= head.from && i <= head.to));
  return indices.flatMap((i) =>
    expand(rest, expected[i], `${prefix}[${i}]`).map((x) => ({ ...x, concrete: [i, ...x.concrete] })),
  );
}

function get(root: unknown, concrete: readonly (string | number)[]): unknown {
  let value = root;
  for (const key of concrete) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function asRule(rule: string): CompareRule {
  if (!(COMPARE_RULES as readonly string[]).includes(rule)) throw new Error(`unknown compare rule ${rule}`);
  return rule as CompareRule;
}

/** The compare table of a golden; leaves of `expect` no key covers are compared `exact`. */
function compareTable(golden: Golden, root: unknown): [string, CompareRule][] {
  const table: [string, CompareRule][] = Object.entries(golden.compare ?? {}).map(([k, v]) => [k, asRule(v)]);
  // A path is covered when a compare key names it, a part of it, or something inside it.
  const keys = table.map(([k]) => k.replace(/\[[^\]]*\]/g, ''));
  const covered = (path: string) =>
    keys.some((k) => k === path || path.startsWith(`${k}.`) || k.startsWith(`${path}.`));
  const named = (path: string) => keys.some((k) => k === path || path.startsWith(`${k}.`));
  const walk = (value: unknown, path: string) => {
    if (path && named(path)) return;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    } else if (path && !covered(path)) table.push([path, 'exact']);
  };
  walk(root, '');
  return table;
}

/** Scores one answer against its golden, field by field. */
export function scoreCase(c: CorpusCase, actual: ActualOutcome): FieldScore[] {
  const { golden } = c;
  const wantsError = golden.expectError !== undefined;
  const expectedRoot: unknown = wantsError ? golden.expectError : golden.expect;
  // An answer of the wrong kind (error for data, data for error) leaves only an empty root to compare.
  const actualRoot: unknown =
    wantsError ? ('error' in actual ? actual.error : {}) : 'data' in actual ? { data: actual.data } : {};
  const failedOutright = wantsError !== 'error' in actual;
  const base = { caseId: golden.id, domain: golden.domain, operation: golden.operation };
  const scores: FieldScore[] = [];

  for (const [field, rule] of compareTable(golden, expectedRoot)) {
    const segments = parsePath(field);
    const positions = expand(segments, expectedRoot);
    for (const { path, concrete } of positions) {
      const expected = get(expectedRoot, concrete);
      if (expected === undefined) continue; // absent from expect: says nothing
      const value = get(actualRoot, concrete);
      const ok = !failedOutright && compareValues(rule, expected, value);
      scores.push({ ...base, field, path, rule, ok, expected, actual: value });
    }
    // orderedAsins over a list: a longer actual list than expected is one more miss.
    if (rule === 'orderedAsins' && segments.some((s) => 'all' in s)) {
      const listIndex = segments.findIndex((s) => 'all' in s);
      const listPath = segments.slice(0, listIndex).map((s) => ('key' in s ? s.key : '')).filter(Boolean);
      const expectedList = get(expectedRoot, listPath);
      const actualList = get(actualRoot, listPath);
      if (Array.isArray(expectedList) && Array.isArray(actualList) && actualList.length > expectedList.length) {
        scores.push({ ...base, field, path: `${listPath.join('.')}.length`, rule, ok: false, expected: expectedList.length, actual: actualList.length });
      }
    }
  }
  return scores;
}

export interface Tally {
  matched: number;
  total: number;
}

export interface Accuracy {
  readonly overall: Tally;
  readonly byField: Map<string, Tally>;
  readonly byDomain: Map<string, Tally>;
  /** `${field}\u0000${domain}` → tally. */
  readonly byFieldDomain: Map<string, Tally>;
}

function bump(map: Map<string, Tally>, key: string, ok: boolean): void {
  const tally = map.get(key) ?? { matched: 0, total: 0 };
  tally.total += 1;
  if (ok) tally.matched += 1;
  map.set(key, tally);
}

/** Field accuracy = matched fields ÷ expected fields, overall, per field, per marketplace. */
export function aggregate(scores: readonly FieldScore[]): Accuracy {
  const acc: Accuracy = { overall: { matched: 0, total: 0 }, byField: new Map(), byDomain: new Map(), byFieldDomain: new Map() };
  for (const s of scores) {
    acc.overall.total += 1;
    if (s.ok) acc.overall.matched += 1;
    bump(acc.byField, s.field, s.ok);
    bump(acc.byDomain, s.domain, s.ok);
    bump(acc.byFieldDomain, `${s.field}\u0000${s.domain}`, s.ok);
  }
  return acc;
}

export function ratio(t: Tally | undefined): number {
  return t && t.total > 0 ? t.matched / t.total : Number.NaN;
}

/** A markdown table: one row per field, one column per marketplace, plus the totals. */
export function formatAccuracyTable(acc: Accuracy, stripPrefix = /^data\.[A-Za-z]+\./): string {
  const domains = [...acc.byDomain.keys()].sort();
  const cell = (t: Tally | undefined) => (t ? `${(ratio(t) * 100).toFixed(0)}% (${t.matched}/${t.total})` : '–');
  const lines = [
    `| field | ${domains.join(' | ')} | all |`,
    `|---|${domains.map(() => '---').join('|')}|---|`,
  ];
  for (const field of [...acc.byField.keys()].sort()) {
    const cells = domains.map((d) => cell(acc.byFieldDomain.get(`${field}\u0000${d}`)));
    lines.push(`| ${field.replace(stripPrefix, '')} | ${cells.join(' | ')} | ${cell(acc.byField.get(field))} |`);
  }
  lines.push(`| **all fields** | ${domains.map((d) => cell(acc.byDomain.get(d))).join(' | ')} | **${cell(acc.overall)}** |`);
  return lines.join('\n');
}
