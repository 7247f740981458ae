/**
 * `GET /api/docs`: the interactive API reference of the OpenAPI document this gateway serves
 * (`/api/openapi.json`), rendered by Swagger UI from its npm package (swagger-ui-dist: a prebuilt
 * browser bundle, no dependencies, nothing fetched at install or at run time). "Authorize" takes the
 * API key; "Try it out" calls this origin (the document's server is `/`).
 */
export const API_REFERENCE_PATH = '/api/docs';

export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference · Retail Data API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
  <link rel="stylesheet" href="${API_REFERENCE_PATH}/site.css">
  <script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js" defer></script>
  <script src="${API_REFERENCE_PATH}/api-reference.js" defer></script>
</head>
<body>
  <header class="site-header"><p class="brand"><a href="/">Retail Data API</a> <span>API reference</span></p></header>
  <p class="reference-hint">Choose <strong>Authorize</strong> and paste your API key (<code>API-KEY</code>), then <strong>Try it out</strong> on any operation: calls go to this server and are charged as usual.</p>
  <div id="swagger-ui"></div>
</body>
</html>
`;
