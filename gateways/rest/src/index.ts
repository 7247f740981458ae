export { createRestGateway, type RestGatewayOptions } from './router.js';
export { createRestApp, type RestAppOptions } from './app.js';
export { buildOpenApi, ERROR_STATUSES } from './openapi.js';
