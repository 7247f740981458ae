export { createGraphqlGateway, type GraphqlGatewayOptions, GRAPHQL_PATH, DEFAULT_MAX_DEPTH, DEFAULT_MAX_OPERATIONS } from './gateway.js';
export { createGraphqlApp, type GraphqlAppOptions } from './app.js';
export { buildRetailSchema } from './schema.js';
export { planRequest, type RequestPlan, type PlannedCall } from './plan.js';
export { DEFAULT_BODY_LIMIT_BYTES } from './http-body.js';
