import { readFileSync } from 'node:fs';
import { create, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { renderData } from '@retail/contract';
import { findMarketplaceByCode, marketplaceByCode } from '../../core/src/marketplaces/index.js';
import type { Marketplace } from '../../core/src/marketplaces/types.js';
import { aggregate, corpusDirFromEnv, formatAccuracyTable, loadCorpusCases, ratio, scoreCase, type Accuracy, type CorpusCase } from './score.js';

/*
 * Runs one page kind's parser over every corpus page of that kind, renders the result with the
 * contract's wire renderer exactly as the service would, and scores it with the corpus scorer.
 * Shared by the search, best-sellers, variants, offers, reviews and seller corpus tests.
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

export interface KindRun {
  readonly cases: readonly CorpusCase[];
  readonly accuracy: Accuracy;
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
  return { cases, accuracy, table: formatAccuracyTable(accuracy) };
}

export { ratio };
