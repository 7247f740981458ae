/**
 * The stack the cross-interface suites run against: every driver mounted, one key on an unlimited
 * plan so no rate limit or balance answers in place of the rule under test.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Stack, type StackOptions, startStack } from '../harness/stack.js';
import type { Driver } from './driver.js';
import { DRIVERS } from './drivers/index.js';

export interface DrivenStack {
  readonly stack: Stack;
  readonly key: string;
  readonly drivers: readonly Driver[];
}

/**
 * Starts the stack before the file's (or the describe block's) tests and closes it after; read the
 * fields inside tests. `options` go to startStack after the mounts (e.g. a core of the test's own).
 */
export function drivenStack(options: () => Omit<StackOptions, 'mounts'> = () => ({})): DrivenStack {
  const live = { stack: undefined as Stack | undefined, key: '', drivers: [] as Driver[] };
  beforeAll(async () => {
    live.stack = await startStack({ ...options(), mounts: DRIVERS.map((d) => d.mount) });
    const { accountId } = await live.stack.metering.admin.createAccount({ units: 1_000_000, plan: 'unlimited' });
    live.key = (await live.stack.metering.admin.createKey(accountId)).key;
    live.drivers = await Promise.all(DRIVERS.map((d) => d.create(live.stack!)));
  });
  afterAll(async () => {
    await live.stack?.close();
  });
  return {
    get stack() {
      if (!live.stack) throw new Error('the stack starts in beforeAll');
      return live.stack;
    },
    get key() {
      return live.key;
    },
    get drivers() {
      return live.drivers;
    },
  };
}
