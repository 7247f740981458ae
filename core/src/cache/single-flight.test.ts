import { describe, expect, it } from 'vitest';
import { createSingleFlight } from './single-flight.js';

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('createSingleFlight', () => {
  it('100 concurrent identical calls run the work once and all get its value', async () => {
    const flights = createSingleFlight();
    const gate = deferred<string>();
    let runs = 0;
    const calls = Array.from({ length: 100 }, () =>
      flights.run('k', new AbortController().signal, async () => {
        runs++;
        return gate.promise;
      }),
    );
    gate.resolve('page');
    const results = await Promise.all(calls);
    expect(runs).toBe(1);
    expect(results.every((r) => r.value === 'page')).toBe(true);
    expect(results.filter((r) => !r.shared)).toHaveLength(1);
    expect(flights.inFlight).toBe(0);
  });

  it('one caller leaving does not abort the shared work; the last one leaving does', async () => {
    const flights = createSingleFlight();
    const gate = deferred<string>();
    let workSignal!: AbortSignal;
    const a = new AbortController();
    const b = new AbortController();
    const first = flights.run('k', a.signal, async (s) => ((workSignal = s), gate.promise));
    const second = flights.run('k', b.signal, async () => 'never');
    a.abort(new Error('a left'));
    await expect(first).rejects.toThrow('a left');
    expect(workSignal.aborted).toBe(false);
    b.abort(new Error('b left'));
    await expect(second).rejects.toThrow('b left');
    expect(workSignal.aborted).toBe(true);
    gate.resolve('late');
  });

  it('failures are shared but not remembered: the next call runs again', async () => {
    const flights = createSingleFlight();
    let runs = 0;
    const fail = () => flights.run('k', new AbortController().signal, async () => (runs++, Promise.reject(new Error('upstream'))));
    await expect(Promise.all([fail(), fail()])).rejects.toThrow('upstream');
    await expect(fail()).rejects.toThrow('upstream');
    expect(runs).toBe(2);
  });

  it('the work may run until the latest deadline of the callers who joined it, or without one if a caller had none', async () => {
    const flights = createSingleFlight();
    const gate = deferred<string>();
    let deadline!: () => number | undefined;
    const signal = () => new AbortController().signal;
    const first = flights.run('k', signal(), async (_s, d) => ((deadline = d), gate.promise), 1_000);
    expect(deadline()).toBe(1_000);
    const later = flights.run('k', signal(), async () => 'never', 5_000);
    expect(deadline()).toBe(5_000);
    const shorter = flights.run('k', signal(), async () => 'never', 2_000);
    expect(deadline()).toBe(5_000);
    const unbounded = flights.run('k', signal(), async () => 'never');
    expect(deadline()).toBeUndefined();
    gate.resolve('page');
    await Promise.all([first, later, shorter, unbounded]);
  });
});
