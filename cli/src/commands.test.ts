import { API_REGISTRY } from '@retail/gateway-shared/registry';
import { describe, expect, it } from 'vitest';
import { COMMANDS, describeParameter } from './commands.js';
import { COMMON_OPTION_NAMES } from './options.js';

describe('the commands', () => {
  it('are one per operation of the registry, with unique names', () => {
    expect(COMMANDS.map((c) => c.op)).toEqual(API_REGISTRY);
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });

  it('take no parameter named like a common option', () => {
    for (const command of COMMANDS) for (const p of command.op.parameters) expect(COMMON_OPTION_NAMES.has(p.name), `${command.name} --${p.name}`).toBe(false);
  });

  it('fill the identifier a user types first from a bare argument', () => {
    const positionals = Object.fromEntries(COMMANDS.map((c) => [c.name, c.positionals.map((p) => p.name)]));
    expect(positionals).toMatchObject({ product: ['asin'], search: ['searchTerm'], 'asin-from-gtin': ['gtin'], bestsellers: ['categoryId'], deals: [], 'webhook-redeliver': ['watchId', 'deliveryId'] });
  });

  it('describe a parameter by its declared rules', () => {
    const offers = COMMANDS.find((c) => c.name === 'product-offers')!;
    const page = offers.op.parameters.find((p) => p.name === 'page')!;
    expect(describeParameter(page)).toMatch(/\(1 to 100; default 1\)$/);
  });
});
