import { describe, expect, it } from 'vitest';
import { loadWebhookConfig } from './config.js';

describe('loadWebhookConfig', () => {
  it('keeps private targets closed and the timeout at 10 s by default', () => {
    expect(loadWebhookConfig({})).toEqual({ policy: { allowPrivateTargets: false, allowLoopback: false }, timeoutMs: 10_000 });
  });

  it('opens this machine\'s loopback only for the exact word true', () => {
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).policy).toEqual({ allowPrivateTargets: false, allowLoopback: true });
    expect(() => loadWebhookConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK must be true or false/);
  });

  it('opens private targets only for the exact word true', () => {
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).policy.allowPrivateTargets).toBe(true);
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).policy.allowPrivateTargets).toBe(false);
    for (const raw of ['yes', '1', 'TRUE', 'flase']) {
      expect(() => loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: raw }), raw).toThrow(/must be true or false/);
    }
  });

  it('reads the timeout within its bounds', () => {
    expect(loadWebhookConfig({ WEBHOOK_TIMEOUT_MS: '2500' }).timeoutMs).toBe(2500);
    for (const raw of ['0', '99', '60001', '1.5', 'ten']) {
      expect(() => loadWebhookConfig({ WEBHOOK_TIMEOUT_MS: raw }), raw).toThrow(/milliseconds from 100 to 60000/);
    }
  });
});
