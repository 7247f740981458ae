export { createRestGateway, type RestGatewayOptions } from './router.js';
export { createRestApp, type RestAppOptions } from './app.js';
export { buildOpenApi, ERROR_STATUSES } from './openapi.js';
export { type LandingLink, type PagesOptions, API_REFERENCE_PATH, DOCS_PATH } from './pages/index.js';
