import { ProxyAgent, type Dispatcher } from 'undici';
import { systemClock, type Clock } from './clock.js';

export interface ProxyHealthOptions {
  /** Consecutive failures that bench a proxy. */
  readonly failureThreshold?: number;
  /** How long a benched proxy rests before it is tried again. */
  readonly cooldownMs?: number;
  readonly clock?: Clock;
}

export interface ProxyChoice {
  readonly url: string;
  /** An undici ProxyAgent for this proxy (made once, reused: keep-alive to the proxy). */
  readonly dispatcher: Dispatcher;
}

/** An optional list of outbound proxies, used in turn, with per-proxy health. */
export interface ProxyRotation {
  /** The next healthy proxy; when all rest, the one whose rest ends first (never none). */
  pick(): ProxyChoice;
  /** What a fetch through `url` said about the proxy (a block or reset counts against it). */
  report(url: string, ok: boolean): void;
  health(): { url: string; healthy: boolean; failures: number }[];
  close(): Promise<void>;
}

export function createProxyRotation(
  urls: readonly string[],
  options: ProxyHealthOptions = {},
  makeDispatcher: (url: string) => Dispatcher = (url) => new ProxyAgent(url),
): ProxyRotation {
  if (urls.length === 0) throw new Error('a proxy rotation needs at least one proxy URL');
  const clock = options.clock ?? systemClock;
  const threshold = options.failureThreshold ?? 3;
  const cooldownMs = options.cooldownMs ?? 60_000;
  const proxies = urls.map((url) => ({ url, failures: 0, restUntil: 0, dispatcher: undefined as Dispatcher | undefined }));
  let cursor = 0;
  const choice = (p: (typeof proxies)[number]): ProxyChoice => ({ url: p.url, dispatcher: (p.dispatcher ??= makeDispatcher(p.url)) });
  return {
    pick() {
      const now = clock.now();
      for (let i = 0; i < proxies.length; i++) {
        const p = proxies[(cursor + i) % proxies.length]!;
        if (p.restUntil <= now) {
          cursor = (cursor + i + 1) % proxies.length;
          return choice(p);
        }
      }
      return choice(proxies.reduce((a, b) => (b.restUntil < a.restUntil ? b : a)));
    },
    report(url, ok) {
      const p = proxies.find((x) => x.url === url);
      if (!p) return;
      if (ok) {
        p.failures = 0;
        p.restUntil = 0;
        return;
      }
      p.failures++;
      if (p.failures >= threshold) {
        p.failures = 0;
        p.restUntil = clock.now() + cooldownMs;
      }
    },
    health: () => proxies.map((p) => ({ url: p.url.replace(/\/\/[^@/]*@/, '//***@'), healthy: p.restUntil <= clock.now(), failures: p.failures })),
    close: async () => {
      // eslint-disable-next-line @typescript-eslint/await-thenable -- the rule reads close()'s callback overload; close() returns a Promise
      await Promise.all(proxies.map((p) => p.dispatcher?.close()));
    },
  };
}
