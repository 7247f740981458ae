import { ErrorReason } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { parseBestSellersUrl, parseProductUrl } from './url.js';

function rejectionOf(fn: () => unknown): CoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return error as CoreError;
  }
  throw new Error('accepted');
}

describe('parseProductUrl', () => {
  it.each([
    ['https://www.amazon.com/dp/B08N5WRWNW', 'US', 'B08N5WRWNW'],
    ['https://www.amazon.com/dp/b08n5wrwnw?th=1', 'US', 'B08N5WRWNW'],
    ['https://www.amazon.de/Apple-iPhone-128-GB-Blau/dp/B0BDJH7WYQ/ref=sr_1_1?keywords=iphone', 'DE', 'B0BDJH7WYQ'],
    ['https://amazon.co.uk/gp/product/0306406152/', 'UK', '0306406152'],
    ['https://www.amazon.co.jp/gp/aw/d/B07XJ8C8F5', 'JP', 'B07XJ8C8F5'],
    ['https://www.amazon.com/exec/obidos/ASIN/0306406152/someone-20', 'US', '0306406152'],
    ['https://WWW.AMAZON.COM.BR/dp/B0000000AA#reviews', 'BR', 'B0000000AA'],
    ['https://www.amazon.in:443/dp/B0000000AA', 'IN', 'B0000000AA'],
    ['https://www.amazon.com.mx/-/es/dp/B0000000AA', 'MX', 'B0000000AA'],
    ['https://www.amazon.co.jp/%E3%82%BD%E3%83%8B%E3%83%BC/dp/B0000000AA', 'JP', 'B0000000AA'],
    ['https://www.amazon.com.au/dp/product/B0000000AA', 'AU', 'B0000000AA'],
    ['  https://www.amazon.ca/dp/B0000000AA  ', 'CA', 'B0000000AA'],
    // Read, never fetched: the upstream URL is rebuilt from the marketplace, so a trailing-dot host only names it.
    ['https://www.amazon.com./dp/B0000000AA', 'US', 'B0000000AA'],
  ])('reads %s', (raw, code, asin) => {
    const parsed = parseProductUrl(raw);
    expect({ code: parsed.marketplace.code, asin: parsed.asin }).toEqual({ code, asin });
  });

  it.each([
    ['http://www.amazon.com/dp/B08N5WRWNW', 'https'],
    ['javascript:alert(1)//https://www.amazon.com/dp/B08N5WRWNW', 'https'],
    ['file:///etc/passwd', 'https'],
    ['ftp://www.amazon.com/dp/B08N5WRWNW', 'https'],
    ['//www.amazon.com/dp/B08N5WRWNW', 'https'],
    ['www.amazon.com/dp/B08N5WRWNW', 'https'],
    ['https:www.amazon.com/dp/B08N5WRWNW', 'https'],
    ['https://www.amazon.com@evil.example/dp/B000000000', 'credentials'],
    ['https://user:pass@www.amazon.com/dp/B000000000', 'credentials'],
    ['https://www.amazon.com:8443/dp/B000000000', 'port'],
    ['https://www.amazon.com:80/dp/B000000000', 'port'],
    ['https://www.amazon.com:34803/dp/B000000000', 'port'],
    ['https://www.amazon.com:/dp/B000000000', 'port'],
    ['https://[::1]/dp/B000000000', 'port'],
    ['https://[::ffff:127.0.0.1]:443/dp/B000000000', 'port'],
    ['https://evil.example/dp/B000000000', 'host'],
    ['https://www.amazon.com.evil.example/dp/B000000000', 'host'],
    ['https://amazon.com-evil.example/dp/B000000000', 'host'],
    ['https://www.amazοn.com/dp/B000000000', 'host'],
    ['https://www.xn--amazn-mye.com/dp/B000000000', 'host'],
    ['https://xn--www-amazon-com.example/dp/B000000000', 'host'],
    ['https://www\uff0eamazon\uff0ecom/dp/B000000000', 'host'],
    ['https://www.amazon.cn/dp/B000000000', 'host'],
    ['https://smile.amazon.com/dp/B000000000', 'host'],
    ['https://completion.amazon.com/dp/B000000000', 'host'],
    ['https://127.0.0.1/dp/B000000000', 'host'],
    ['https://www.amazon.com\\@evil.example/dp/B000000000', 'characters'],
    ['https://www.amazon.com/dp/B000000000\nX', 'characters'],
    ['https://www.amazon.pl/dp/B0000000AA:443', 'ASIN'],
    ['https://www.amazon.com/', 'ASIN'],
    ['https://www.amazon.com/s?k=dp/B000000000', 'ASIN'],
    ['https://www.amazon.com/dp/B00000000', 'ASIN'],
    ['https://www.amazon.com/dp/B0000000000', 'ASIN'],
    ['https://www.amazon.com/dp/B00000000%21', 'ASIN'],
    ['https://www.amazon.com/gp/bestsellers/electronics', 'ASIN'],
  ])('rejects %s (%s)', (raw, why) => {
    const error = rejectionOf(() => parseProductUrl(raw));
    expect(error.reason).toBe(ErrorReason.INVALID_ARGUMENT);
    expect(error.fieldPath).toEqual(['url']);
    const expected = { https: /https URL/, credentials: /credentials/, port: /port/, host: /marketplace host/, ASIN: /ASIN/, characters: /characters/ }[why]!;
    expect(error.message).toMatch(expected);
  });
});

describe('parseBestSellersUrl', () => {
  it.each([
    ['https://www.amazon.com/gp/bestsellers/electronics', 'US', 'electronics'],
    ['https://www.amazon.com/gp/bestsellers/electronics/172541/ref=zg_bs_nav_electronics_1', 'US', 'electronics/172541'],
    ['https://www.amazon.de/Best-Sellers-Elektronik-Foto/zgbs/ce-de/ref=zg_bs_nav_0', 'DE', 'ce-de'],
    ['https://www.amazon.co.jp/bestsellers/books/', 'JP', 'books'],
    ['https://www.amazon.com/gp/bestsellers/', 'US', undefined],
    ['https://www.amazon.com/zgbs', 'US', undefined],
  ])('reads %s', (raw, code, categoryId) => {
    const parsed = parseBestSellersUrl(raw);
    expect({ code: parsed.marketplace.code, categoryId: parsed.categoryId }).toEqual({ code, categoryId });
  });

  it.each(['https://www.amazon.com/dp/B000000000', 'https://evil.example/gp/bestsellers/books', 'http://www.amazon.com/gp/bestsellers/books', 'https://www.amazon.com/gp/bestsellersx/books',
    'https://www.amazon.com:34803/gp/bestsellers/books', 'https://www.amazon.com:8443/gp/bestsellers/books', 'https://user:pw@www.amazon.com/gp/bestsellers/books',
    'https://[::1]/gp/bestsellers/books', 'https://127.0.0.1/gp/bestsellers/books'])(
    'rejects %s',
    (raw) => {
      expect(rejectionOf(() => parseBestSellersUrl(raw)).fieldPath).toEqual(['url']);
    },
  );
});
