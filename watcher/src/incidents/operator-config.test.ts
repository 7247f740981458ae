import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../webhooks/index.js';
import { loadOperatorWebhook } from './operator-config.js';

const closed = { allowPrivateTargets: false };
const secret = generateWebhookSecret();

describe('loadOperatorWebhook', () => {
  it('none configured: incidents are only kept and logged', () => {
    expect(loadOperatorWebhook({}, closed)).toBeUndefined();
  });

  it('a receiver and its whsec_ secret', () => {
    expect(loadOperatorWebhook({ OPERATOR_WEBHOOK_URL: 'https://ops.example/hooks', OPERATOR_WEBHOOK_SECRET: secret }, closed)).toEqual({ url: 'https://ops.example/hooks', secret });
  });

  it('refuses a secret without a URL, a URL without a usable secret, and a private receiver unless private targets are allowed', () => {
    expect(() => loadOperatorWebhook({ OPERATOR_WEBHOOK_SECRET: secret }, closed)).toThrow(/OPERATOR_WEBHOOK_SECRET is set without OPERATOR_WEBHOOK_URL/);
    expect(() => loadOperatorWebhook({ OPERATOR_WEBHOOK_URL: 'https://ops.example/hooks' }, closed)).toThrow(/OPERATOR_WEBHOOK_SECRET must be a Standard Webhooks secret/);
    expect(() => loadOperatorWebhook({ OPERATOR_WEBHOOK_URL: 'https://ops.example/hooks', OPERATOR_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' }, closed)).toThrow(/Standard Webhooks secret/);
    expect(() => loadOperatorWebhook({ OPERATOR_WEBHOOK_URL: 'https://127.0.0.1/hooks', OPERATOR_WEBHOOK_SECRET: secret }, closed)).toThrow(/^OPERATOR_WEBHOOK_URL: /);
    expect(loadOperatorWebhook({ OPERATOR_WEBHOOK_URL: 'https://127.0.0.1/hooks', OPERATOR_WEBHOOK_SECRET: secret }, { allowPrivateTargets: true })?.url).toBe('https://127.0.0.1/hooks');
  });
});
