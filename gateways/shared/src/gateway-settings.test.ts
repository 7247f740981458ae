import { describe, expect, it } from 'vitest';
import { GatewayConfigError, loadGatewaySettings } from './gateway-settings.js';

describe('loadGatewaySettings', () => {
  it('defaults everything but the required SERVICE_TOKEN', () => {
    expect(loadGatewaySettings({ SERVICE_TOKEN: 'a-service-token' })).toEqual({
      port: 8080,
      host: '0.0.0.0',
      core: { address: '127.0.0.1:50051', serviceToken: 'a-service-token', deadlineMs: 10_000, batchDeadlineMs: 30_000, coalesce: true },
      corsOrigins: [],
    });
  });

  it('reads every variable', () => {
    const settings = loadGatewaySettings({
      PORT: '9000',
      HOST: '127.0.0.1',
      CORE_ADDRESS: 'core.retail.svc:50051',
      SERVICE_TOKEN: 'a-service-token',
      CORE_DEADLINE_MS: '2500',
      CORE_BATCH_DEADLINE_MS: '60000',
      CORE_COALESCE: 'false',
      CORS_ORIGINS: ' https://a.example ,,https://b.example ',
    });
    expect(settings).toEqual({
      port: 9000,
      host: '127.0.0.1',
      core: { address: 'core.retail.svc:50051', serviceToken: 'a-service-token', deadlineMs: 2500, batchDeadlineMs: 60_000, coalesce: false },
      corsOrigins: ['https://a.example', 'https://b.example'],
    });
  });

  it('names every bad variable on its own line, without echoing values', () => {
    const error = (() => {
      try {
        loadGatewaySettings({ PORT: 'eighty', CORE_ADDRESS: 'no-port', CORE_DEADLINE_MS: '-5', CORE_COALESCE: 'yes', SERVICE_TOKEN: ' ' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GatewayConfigError);
    expect((error as GatewayConfigError).problems).toEqual([
      'PORT must be a whole number from 1 to 65535',
      'CORE_ADDRESS must be host:port',
      'SERVICE_TOKEN is required',
      'CORE_DEADLINE_MS must be a whole number from 1 to 600000',
      'CORE_COALESCE must be true or false',
    ]);
    expect((error as Error).message.split('\n')).toHaveLength(6);
    expect((error as Error).message).not.toMatch(/eighty|no-port|-5|yes/);
  });
});
