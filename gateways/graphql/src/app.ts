/** The GraphQL gateway as a standalone express app (its own deployment). */
import type express from 'express';
import { createGatewayApp } from '@retail/gateway-shared';
import { type GraphqlGatewayOptions, createGraphqlGateway } from './gateway.js';

export interface GraphqlAppOptions extends GraphqlGatewayOptions {
  /** Readiness of the dependencies (core health, ledger). */
  readonly ready?: () => Promise<boolean>;
}

export async function createGraphqlApp(options: GraphqlAppOptions): Promise<express.Express> {
  return createGatewayApp({ router: await createGraphqlGateway(options), ready: options.ready, marketplace: () => options.core.marketplaceHealth() });
}
