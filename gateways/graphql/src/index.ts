export { createGraphqlGateway, type GraphqlGatewayOptions, GRAPHQL_PATH } from './gateway.js';
export { createGraphqlApp, type GraphqlAppOptions } from './app.js';
