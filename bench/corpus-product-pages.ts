/**
 * The corpus's US product pages as the page archive keeps them (brotli, quality 5), for the
 * re-parsing benchmarks (reparse-page.ts: one call's time; reparse-job.ts: a job's pages a second).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

export interface CorpusProductPage {
  readonly url: string;
  readonly identifier: string;
  readonly body: Buffer;
}

export function corpusProductPages(corpus: string | undefined = process.env.RETAIL_CORPUS): CorpusProductPage[] {
  if (!corpus) throw new Error('set RETAIL_CORPUS to the corpus directory');
  const entries = (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as Array<{ operation: string; domain: string; page: string; url: string }>)
    .filter((e) => e.operation === 'product' && e.domain === 'US');
  return entries.map((e) => ({
    url: e.url,
    identifier: /\/dp\/([A-Z0-9]{10})/.exec(e.url)?.[1] ?? '',
    body: brotliCompressSync(readFileSync(join(corpus, e.page)), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  })).filter((p) => p.identifier);
}
