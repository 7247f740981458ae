/**
 * Graceful stop: health watchers see NOT_SERVING, a call already running finishes with its answer,
 * then the server goes down.
 */
import { createRequire } from 'node:module';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import { RetailService } from '@retail/contract';
import { HANDLERS, createCoreServer, createLogger, loadCoreConfig } from '@retail/core';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('graceful shutdown', () => {
  it('reports NOT_SERVING, lets the running call finish, then stops', async () => {
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let handlerStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (handlerStarted = resolve));
    const config = loadCoreConfig({ GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', SERVICE_TOKEN: 'shutdown-test-token', LOG_LEVEL: 'silent' });
    const core = createCoreServer({
      config,
      logger: createLogger('silent'),
      pages: { fetchPage: () => Promise.reject(new Error('no upstream in this test')) },
      handlers: {
        ...HANDLERS,
        GetCategoryTaxonomy: async () => {
          handlerStarted();
          await gate;
          return { retailProductCategoryTaxonomy: [{ id: '1', name: 'Books' }] };
        },
      },
    });
    const { port } = await core.start();

    const { service } = require('grpc-health-check') as { service: grpc.ServiceDefinition };
    const Health = grpc.makeClientConstructor(service, 'grpc.health.v1.Health');
    const health = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      watch(request: { service: string }): grpc.ClientReadableStream<{ status: string }>;
    };
    const statuses: string[] = [];
    const watch = health.watch({ service: '' });
    let sawServing: () => void = () => {};
    const serving = new Promise<void>((resolve) => (sawServing = resolve));
    const sawNotServing = new Promise<void>((resolve) => {
      watch.on('data', (message) => {
        statuses.push(message.status);
        if (message.status === 'SERVING') sawServing();
        if (message.status === 'NOT_SERVING') resolve();
      });
    });
    watch.on('error', () => {});
    await serving;

    const client = createClient(RetailService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));
    const running = client.getCategoryTaxonomy({}, { headers: { authorization: 'Bearer shutdown-test-token' } });
    await started;

    const stopping = core.stop({ graceMs: 5_000 });
    await sawNotServing;
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
    watch.cancel();
    health.close();

    openGate();
    const response = await running;
    expect(response.retailProductCategoryTaxonomy[0]?.name).toBe('Books');
    await stopping;
  });
});
