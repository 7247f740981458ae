/** The REST gateway as a standalone express app (its own deployment). */
import type express from 'express';
import { createGatewayApp, type StandaloneGatewayOptions } from '@retail/gateway-shared';
import { createRestGateway, type RestGatewayOptions } from './router.js';

export interface RestAppOptions extends RestGatewayOptions, StandaloneGatewayOptions {}

export function createRestApp(options: RestAppOptions): express.Express {
  return createGatewayApp({
    router: createRestGateway(options),
    ready: options.ready,
    marketplace: () => options.core.marketplaceHealth(),
    ...(options.accessLog ? { accessLog: options.accessLog } : {}),
    settings: { 'query parser': false }, // the gateway reads the raw query string itself
  });
}
