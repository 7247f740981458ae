import { readFileSync } from 'node:fs';
import { create, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { renderData } from '@retail/contract';
import { findMarketplaceByCode, marketplaceByCode } from '../../core/src/marketplaces/index.js';
import type { Marketplace } from '../../core/src/marketplaces/types.js';
import { aggregate, corpusDirFromEnv, formatAccuracyTable, loadCorpusCases, ratio, scoreCase, type Accuracy, type CorpusCase, type FieldScore } from './score.js';

/*
 * Runs one page kind's parser over every corpus page of that kind, renders the result with the
 * contract's wire renderer exactly as the service would, and scores it with the corpus scorer.
 * Shared by the corpus tests of every kind but product (page-kinds.test.ts) and their docs report.
 */

/** AE pages are outside the 13 marketplaces and serve parser robustness only: English words, AED. */
function robustnessMarketplace(code: string): Marketplace {
  const us = marketplaceByCode('US');
  if (code !== 'AE') throw new Error(`corpus page of unknown marketplace ${code}`);
  return {
    ...us,
    currency: 'AED',
    currencySymbol: 'AED',
    host: 'www.amazon.ae',
    origin: 'https://www.amazon.ae',
    bareHost: 'amazon.ae',
    priceFormat: { ...us.priceFormat, pattern: 'AED\u00a0{number}' },
  };
}

export function corpusMarketplace(code: string): Marketplace {
  return findMarketplaceByCode(code) ?? robustnessMarketplace(code);
}

/*
 * What every corpus kind is held to (the product test's bar): all its fields together ≥ 0.99, and
 * every single field ≥ 0.9, so a field that breaks on one layout fails even when the rest carry the
 * total.
 */
export const OVERALL_THRESHOLD = 0.99;
export const PER_FIELD_THRESHOLD = 0.9;

/**
 * The scorer's "longer list" row: the parser returned more items than the golden lists. Best sellers
 * and deals return every item of the page's embedded data where their goldens list the cards the
 * page rendered (docs/parsers.md, Known differences from the goldens); such a row is reported and
 * counted in docs/accuracy.md, and a kind's threshold is measured on its other fields. A shorter
 * list is not this row: the missing positions are misses of their own.
 */
export function isLongerList(score: FieldScore): boolean {
  return !score.ok && score.path.endsWith('.length') && typeof score.actual === 'number' && typeof score.expected === 'number' && score.actual > score.expected;
}

export interface KindRun {
  readonly cases: readonly CorpusCase[];
  /** Every scored field, as the scorer counts them. */
  readonly accuracy: Accuracy;
  /** The fields the thresholds hold: every field but the longer-list rows. */
  readonly held: Accuracy;
  readonly longerLists: readonly FieldScore[];
  readonly misses: readonly FieldScore[];
  readonly table: string;
}

export type KindParser<D extends DescMessage> = (html: string, marketplace: Marketplace, request: Record<string, unknown>) => Omit<MessageInitShape<D>, 'meta'>;

/** Undefined (with the reason) when RETAIL_CORPUS is not usable. */
export function corpusSkipReason(): string | undefined {
  const dir = corpusDirFromEnv();
  return 'skip' in dir ? dir.skip : undefined;
}

export function runKind<D extends DescMessage>(operation: string, responseDesc: D, parse: KindParser<D>): KindRun {
  const dir = corpusDirFromEnv();
  if ('skip' in dir) throw new Error(dir.skip);
  const cases = loadCorpusCases(dir.dir, (entry) => entry.operation === operation);
  const scores = cases.flatMap((c) => {
    const html = readFileSync(c.pageFile, 'utf8');
    const request = (c.entry.request ?? c.golden.request);
    const init = parse(html, corpusMarketplace(c.entry.domain), request);
    const data = renderData(responseDesc, create(responseDesc, init as MessageInitShape<D>));
    return scoreCase(c, { data });
  });
  const accuracy = aggregate(scores);
  return {
    cases,
    accuracy,
    held: aggregate(scores.filter((s) => !isLongerList(s))),
    longerLists: scores.filter(isLongerList),
    misses: scores.filter((s) => !s.ok),
    table: formatAccuracyTable(accuracy),
  };
}

export { ratio };
