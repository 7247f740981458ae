import { describe, expect, it } from 'vitest';
import { EnvironmentError, readEnvironment } from './environment.js';

class PartError extends EnvironmentError {}
const fail = (problems: string[]) => new PartError('part', problems);
const good = { success: true, data: { PORT: 8080 } } as const;
const bad = { success: false, error: { issues: [{ path: ['PORT'], message: 'must be a port number' }, { path: [], message: 'is empty' }] } } as const;

describe('readEnvironment', () => {
  it("returns the schema's variables and each reader's settings under its name", () => {
    const settings = readEnvironment(good, { store: () => ({ dataDir: '/tmp' }), timeoutMs: () => 100 }, fail);
    expect(settings).toEqual({ variables: { PORT: 8080 }, store: { dataDir: '/tmp' }, timeoutMs: 100 });
  });

  it("lists the schema's problems, a reader's EnvironmentError list and another reader's message in one error", () => {
    const read = () => readEnvironment(bad, {
      resilience: () => { throw new EnvironmentError('resilience', ['PROXY_URL must be a URL', 'RETRIES must be at most 5']); },
      fine: () => 1,
      webhooks: () => { throw new Error('WEBHOOK_TIMEOUT_MS must be milliseconds'); },
    }, fail);
    expect(read).toThrow(PartError);
    expect(read).toThrow(expect.objectContaining({
      problems: ['PORT must be a port number', '(environment) is empty', 'PROXY_URL must be a URL', 'RETRIES must be at most 5', 'WEBHOOK_TIMEOUT_MS must be milliseconds'],
    }));
  });

  it('fails on a reader alone when the schema passes', () => {
    expect(() => readEnvironment(good, { store: () => { throw new Error('DAYS must be a whole number'); } }, fail))
      .toThrow('invalid part configuration:\n  - DAYS must be a whole number');
  });
});
