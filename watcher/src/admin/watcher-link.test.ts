import { describe, expect, it } from 'vitest';
import { watcherTargetOf } from './watcher-link.js';

describe('which watcher the admin commands ask', () => {
  it('none without --watcher or WATCHER_ADDRESS: the arguments as given, the direct path', () => {
    expect(watcherTargetOf(['--domain', 'US'], { SERVICE_TOKEN: 't' })).toEqual({ argv: ['--domain', 'US'] });
  });

  it('the flag (either spelling) before WATCHER_ADDRESS, taken out of the arguments, with SERVICE_TOKEN', () => {
    const env = { WATCHER_ADDRESS: '127.0.0.1:1', SERVICE_TOKEN: ' secret ' };
    expect(watcherTargetOf(['status', 'x', '--watcher', 'watcher:50052'], env)).toEqual({ argv: ['status', 'x'], target: { address: 'watcher:50052', serviceToken: 'secret' } });
    expect(watcherTargetOf(['--watcher=10.0.0.7:50052', 'cancel', 'x'], env)).toEqual({ argv: ['cancel', 'x'], target: { address: '10.0.0.7:50052', serviceToken: 'secret' } });
    expect(watcherTargetOf(['status', 'x'], env).target?.address).toBe('127.0.0.1:1');
  });

  it.each([
    [['--watcher'], { SERVICE_TOKEN: 't' }, 'must be host:port'],
    [['--watcher', 'http://127.0.0.1:50052'], { SERVICE_TOKEN: 't' }, 'must be host:port'],
    [[], { WATCHER_ADDRESS: '127.0.0.1' }, 'must be host:port'],
    [['--watcher', '127.0.0.1:50052'], {}, 'needs SERVICE_TOKEN'],
  ])('refuses %j with %j: %s', (argv, env, message) => {
    expect(() => watcherTargetOf(argv, env)).toThrow(message);
  });
});
