import { describe, expect, it } from 'vitest';
import { createAttemptLimiter } from './attempt-limiter.js';
import { ConsoleError } from './errors.js';
import { createMemoryUserStore } from './memory-store.js';

describe('attempt limiter', () => {
  it('refuses the attempt after max within the window with Retry-After until the oldest ages out', async () => {
    let now = 1_000_000;
    const limiter = createAttemptLimiter(createMemoryUserStore(), () => now);
    const limit = { max: 3, windowMs: 60_000 };
    for (const step of [0, 10_000, 10_000]) {
      now += step;
      await limiter.check('k', 'alice', limit);
      await limiter.record('k', 'alice', limit);
    }
    // Attempts at t0, t0+10s, t0+20s: the next slot frees at t0+60s, 40 s from now.
    const refusal = await limiter.check('k', 'alice', limit).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConsoleError);
    expect((refusal as ConsoleError).status).toBe(429);
    expect((refusal as ConsoleError).options.retryAfterSeconds).toBe(40);
    await limiter.check('k', 'bob', limit); // other subjects are not affected
    now += 39_999;
    await expect(limiter.check('k', 'alice', limit)).rejects.toMatchObject({ options: { retryAfterSeconds: 1 } });
    now += 1;
    await limiter.check('k', 'alice', limit);
    await limiter.clear('k', 'alice');
    now += 1;
    for (let i = 0; i < 2; i++) await limiter.record('k', 'alice', limit);
    await limiter.check('k', 'alice', limit);
  });
});
