// Starts Swagger UI on the OpenAPI document this server serves. Loaded from this origin (the page's
// Content-Security-Policy allows no other); `validatorUrl: null` keeps Swagger UI from sending the
// document to its public validator.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
