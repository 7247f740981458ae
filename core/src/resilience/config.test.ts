import { describe, expect, it } from 'vitest';
import { DEFAULT_TTL_SECONDS } from '../cache/page-cache.js';
import { loadResilienceConfig, ResilienceConfigError } from './config.js';

describe('loadResilienceConfig', () => {
  it('has defaults for every setting', () => {
    const c = loadResilienceConfig({});
    expect(c).toMatchObject({ retryAttempts: 3, breakerFailures: 5, hostConcurrency: 8, hostRatePerSecond: 5, cacheStaleSeconds: 0, proxies: [] });
    expect(c.cacheTtlSeconds).toEqual(DEFAULT_TTL_SECONDS);
    expect(c.parseWorkers).toBeGreaterThanOrEqual(1);
  });

  it('against the replay server (MARKETPLACE_ORIGIN) the rate cap and breaker default off, unless set', () => {
    expect(loadResilienceConfig({ MARKETPLACE_ORIGIN: 'http://127.0.0.1:8081' })).toMatchObject({ hostRatePerSecond: 0, breakerFailures: 0 });
    expect(loadResilienceConfig({ MARKETPLACE_ORIGIN: 'http://127.0.0.1:8081', UPSTREAM_HOST_RATE: '2', UPSTREAM_BREAKER_FAILURES: '3' })).toMatchObject({
      hostRatePerSecond: 2,
      breakerFailures: 3,
    });
  });

  it('reads per-kind TTLs, proxies and caps', () => {
    const c = loadResilienceConfig({ CACHE_TTL_SECONDS: 'product=30, search=0', UPSTREAM_PROXIES: 'http://p1:8080,http://u:pw@p2:3128', UPSTREAM_HOST_RATE: '0.5', PARSE_WORKERS: '0' });
    expect(c.cacheTtlSeconds.product).toBe(30);
    expect(c.cacheTtlSeconds.search).toBe(0);
    expect(c.cacheTtlSeconds.offers).toBe(DEFAULT_TTL_SECONDS.offers);
    expect(c.proxies).toEqual(['http://p1:8080', 'http://u:pw@p2:3128']);
    expect([c.hostRatePerSecond, c.parseWorkers]).toEqual([0.5, 0]);
  });

  it('names every bad variable without echoing values', () => {
    try {
      loadResilienceConfig({ CACHE_TTL_SECONDS: 'prodcut=1', UPSTREAM_PROXIES: 'socks://secret@x', UPSTREAM_RETRY_ATTEMPTS: '0' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ResilienceConfigError);
      const problems = (error as ResilienceConfigError).problems.join('\n');
      expect(problems).toMatch(/CACHE_TTL_SECONDS/);
      expect(problems).toMatch(/UPSTREAM_PROXIES/);
      expect(problems).toMatch(/UPSTREAM_RETRY_ATTEMPTS/);
      expect(problems).not.toMatch(/secret/);
    }
  });
});
