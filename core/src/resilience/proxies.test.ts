import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { createManualClock } from './clock.js';
import { createProxyRotation } from './proxies.js';

const fakeDispatcher = () => ({ close: async () => undefined }) as unknown as Dispatcher;

describe('createProxyRotation', () => {
  it('uses proxies in turn, benches a failing one, and brings it back after its rest', async () => {
    const clock = createManualClock();
    const rotation = createProxyRotation(['http://a:1', 'http://user:pw@b:2'], { failureThreshold: 2, cooldownMs: 5_000, clock }, fakeDispatcher);
    expect([rotation.pick().url, rotation.pick().url, rotation.pick().url]).toEqual(['http://a:1', 'http://user:pw@b:2', 'http://a:1']);
    rotation.report('http://a:1', false);
    rotation.report('http://a:1', false);
    expect([rotation.pick().url, rotation.pick().url]).toEqual(['http://user:pw@b:2', 'http://user:pw@b:2']);
    expect(rotation.health()).toEqual([
      { url: 'http://a:1', healthy: false, failures: 0 },
      { url: 'http://***@b:2', healthy: true, failures: 0 },
    ]);
    await clock.advance(5_000);
    expect(new Set([rotation.pick().url, rotation.pick().url])).toEqual(new Set(['http://a:1', 'http://user:pw@b:2']));
  });

  it('when every proxy rests, picks the one that rests least; a success heals', async () => {
    const clock = createManualClock();
    const rotation = createProxyRotation(['http://a:1', 'http://b:2'], { failureThreshold: 1, cooldownMs: 1_000, clock }, fakeDispatcher);
    rotation.report('http://b:2', false);
    await clock.advance(10);
    rotation.report('http://a:1', false);
    expect(rotation.pick().url).toBe('http://b:2');
    rotation.report('http://a:1', true);
    expect(rotation.pick().url).toBe('http://a:1');
  });

  it('makes one real undici ProxyAgent per proxy and reuses it', async () => {
    const rotation = createProxyRotation(['http://127.0.0.1:9']);
    const first = rotation.pick().dispatcher;
    expect(rotation.pick().dispatcher).toBe(first);
    expect(first.constructor.name).toBe('ProxyAgent');
    await rotation.close();
  });
});
