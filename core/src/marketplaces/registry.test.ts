import { Domain } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { ALLOWED_UPSTREAM_HOSTS, MARKETPLACES, marketplaceByCode, marketplaceByDomain, marketplaceByHost } from './index.js';

const HOSTS: Record<string, [host: string, currency: string, locale: string, language: string]> = {
  US: ['www.amazon.com', 'USD', 'en-US', 'en'],
  UK: ['www.amazon.co.uk', 'GBP', 'en-GB', 'en'],
  CA: ['www.amazon.ca', 'CAD', 'en-CA', 'en'],
  DE: ['www.amazon.de', 'EUR', 'de-DE', 'de'],
  FR: ['www.amazon.fr', 'EUR', 'fr-FR', 'fr'],
  IT: ['www.amazon.it', 'EUR', 'it-IT', 'it'],
  ES: ['www.amazon.es', 'EUR', 'es-ES', 'es'],
  AU: ['www.amazon.com.au', 'AUD', 'en-AU', 'en'],
  IN: ['www.amazon.in', 'INR', 'en-IN', 'en'],
  MX: ['www.amazon.com.mx', 'MXN', 'es-MX', 'es'],
  BR: ['www.amazon.com.br', 'BRL', 'pt-BR', 'pt'],
  JP: ['www.amazon.co.jp', 'JPY', 'ja-JP', 'ja'],
  PL: ['www.amazon.pl', 'PLN', 'pl-PL', 'pl'],
};

describe('marketplace registry', () => {
  it('has the 13 marketplaces with their host, currency and locale', () => {
    expect(MARKETPLACES.map((m) => m.code)).toEqual(Object.keys(HOSTS));
    for (const m of MARKETPLACES) {
      const [host, currency, locale, language] = HOSTS[m.code]!;
      expect({ host: m.host, origin: m.origin, currency: m.currency, locale: m.locale, language: m.language }).toEqual({
        host,
        origin: `https://${host}`,
        currency,
        locale,
        language,
      });
      expect(m.words.language).toBe(language);
    }
  });

  it('maps every proto Domain value, UNSPECIFIED to US', () => {
    expect(marketplaceByDomain(Domain.UNSPECIFIED)?.code).toBe('US');
    for (const code of Object.keys(HOSTS)) {
      const domain = Domain[code as keyof typeof Domain];
      expect(marketplaceByDomain(domain)?.code).toBe(code);
      expect(marketplaceByCode(code as never).domain).toBe(domain);
    }
    expect(marketplaceByDomain(99 as Domain)).toBeUndefined();
  });

  it('finds marketplaces by storefront host only', () => {
    expect(marketplaceByHost('www.amazon.de')?.code).toBe('DE');
    expect(marketplaceByHost('AMAZON.CO.JP')?.code).toBe('JP');
    expect(marketplaceByHost('Www.Amazon.Com.Br')?.code).toBe('BR');
    expect(marketplaceByHost('www.amazon.com.')?.code).toBe('US');
    for (const bad of ['amazon.com.evil.example', 'evil.example', 'smile.amazon.com', 'completion.amazon.com', 'www.amazon.cn', 'www.amazοn.com', 'xn--amazn-mye.com', 'wwww.amazon.com', '']) {
      expect(marketplaceByHost(bad), bad).toBeUndefined();
    }
  });

  it('allows each storefront plus its own suggestion host upstream, nothing else', () => {
    expect(marketplaceByCode('US').allowedHosts).toEqual(['www.amazon.com', 'amazon.com', 'completion.amazon.com']);
    expect(marketplaceByCode('UK').allowedHosts).toContain('completion.amazon.co.uk');
    expect(marketplaceByCode('JP').allowedHosts).toContain('completion.amazon.co.jp');
    expect(marketplaceByCode('IN').suggestionHost).toBe('completion.amazon.in');
    expect(marketplaceByCode('BR').suggestionHost).toBe('completion.amazon.com.br');
    expect(ALLOWED_UPSTREAM_HOSTS.has('evil.example')).toBe(false);
    for (const host of ALLOWED_UPSTREAM_HOSTS) expect(host).toMatch(/(^|\.)amazon\.(com|co\.uk|ca|de|fr|it|es|com\.au|in|com\.mx|com\.br|co\.jp|pl)$/);
  });
});
