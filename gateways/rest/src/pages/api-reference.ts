/**
 * `GET /api/docs`: the interactive API reference of the OpenAPI document this gateway serves
 * (`/api/openapi.json`), rendered by Swagger UI from its npm package (swagger-ui-dist: a prebuilt
 * browser bundle, no dependencies, nothing fetched at install or at run time). "Authorize" takes the
 * API key; "Try it out" calls this origin (the document's server is `/`).
 */
import { pageHead } from '@retail/gateway-shared';

export const API_REFERENCE_PATH = '/api/docs';

export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
${pageHead('API reference · Retail Data API', [`${API_REFERENCE_PATH}/swagger-ui.css`, `${API_REFERENCE_PATH}/theme.css`, `${API_REFERENCE_PATH}/site.css`], [`${API_REFERENCE_PATH}/swagger-ui-bundle.js`, `${API_REFERENCE_PATH}/api-reference.js`])}
<body>
  <header class="site-header"><p class="brand"><a href="/">Retail Data API</a> <span>API reference</span></p></header>
  <p class="reference-hint">Choose <strong>Authorize</strong> and paste your API key (<code>API-KEY</code>), then <strong>Try it out</strong> on any operation: calls go to this server and are charged as usual.</p>
  <div id="swagger-ui"></div>
</body>
</html>
`;
