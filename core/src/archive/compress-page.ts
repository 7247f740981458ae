/**
 * Page bodies are compressed with Node's zlib, off the event loop (the async forms run on libuv's
 * thread pool), so archiving never holds a call. Brotli at quality 5 was measured against gzip at
 * level 6 and other qualities in bench/page-archive.ts (docs/page-archive.md, Cost): on real product
 * pages 14 % fewer bytes than gzip for about 12 % more CPU (about 1.3 parses' worth), where quality
 * 7 would cost 1.7 times the CPU for 2 % fewer bytes. Storage, not CPU, is the archive's cost.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants, gunzip, gzip } from 'node:zlib';

export type PageEncoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const unbrotli = promisify(brotliDecompress);
const gz = promisify(gzip);
const ungz = promisify(gunzip);

export const BROTLI_QUALITY = 5;

export async function compressPage(html: string, encoding: PageEncoding = 'br'): Promise<Buffer> {
  const text = Buffer.from(html, 'utf8');
  return encoding === 'br'
    ? brotli(text, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: text.length } })
    : gz(text, { level: 6 });
}

export async function decompressPage(body: Uint8Array, encoding: PageEncoding): Promise<string> {
  const bytes = encoding === 'br' ? await unbrotli(body) : await ungz(body);
  return bytes.toString('utf8');
}
