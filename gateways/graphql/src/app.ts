/** The GraphQL gateway as a standalone express app (its own deployment). */
import type express from 'express';
import { createGatewayApp, type StandaloneGatewayOptions } from '@retail/gateway-shared';
import { type GraphqlGatewayOptions, createGraphqlGateway } from './gateway.js';

export interface GraphqlAppOptions extends GraphqlGatewayOptions, Pick<StandaloneGatewayOptions, 'ready'> {}

export async function createGraphqlApp(options: GraphqlAppOptions): Promise<express.Express> {
  return createGatewayApp({ router: await createGraphqlGateway(options), ready: options.ready, marketplace: () => options.core.marketplaceHealth() });
}
