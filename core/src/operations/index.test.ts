import { OPERATIONS } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { HANDLERS, UNIMPLEMENTED } from './index.js';

describe('handler table', () => {
  it('names all 17 RPCs, each implemented or explicitly unimplemented', () => {
    expect(OPERATIONS).toHaveLength(17);
    expect(Object.keys(HANDLERS).sort()).toEqual(OPERATIONS.map((op) => op.name).sort());
    for (const [name, handler] of Object.entries(HANDLERS)) {
      expect(handler === UNIMPLEMENTED || typeof handler === 'function', name).toBe(true);
    }
  });
});
