import { describe, expect, it } from 'vitest';
import { createMetering, createMeteringFromEnv } from '../../gateways/metering/src/index.js';
import { fakeClock, ledgerSuite } from './ledger-suite.js';

ledgerSuite('memory store', (options) => createMetering(options));

describe('createMeteringFromEnv', () => {
  it('uses the memory store without a ledger URL and takes plans from METERING_PLANS', async () => {
    const clock = fakeClock();
    const metering = await createMeteringFromEnv({ METERING_PLANS: '{"pro":{"ratePerSecond":1,"burst":2}}' }, { clock: clock.now });
    expect(metering.storeKind).toBe('memory');
    expect(await metering.ready()).toBe(true);
    const { accountId } = await metering.admin.createAccount({ plan: 'pro' });
    const { key } = await metering.admin.createKey(accountId);
    const request = { key, interface: 'rest' as const, operations: ['GetProduct'], shapeValid: true, requestId: 'r' };
    expect((await metering.meter.admit(request)).ok).toBe(true);
    expect((await metering.meter.admit(request)).ok).toBe(true);
    expect(await metering.meter.admit(request)).toMatchObject({ ok: false, denial: { httpStatus: 429, retryAfterSeconds: 1 } });
    await expect(createMeteringFromEnv({ METERING_PLANS: '{"x":{"ratePerSecond":-1,"burst":1}}' })).rejects.toThrow();
  });
});
