/**
 * The pages a person opens in a browser, beside the API: the landing page at `/`, the interactive
 * API reference at `/api/docs`, and the documentation at `/docs/`. The chart's Ingress routes these
 * paths (and `/healthz`, `/readyz`) to the REST deployment; `npm start` serves them on its one port.
 */
import compression from 'compression';
import { Router } from 'express';
import { API_REFERENCE_PATH, serveApiReferencePage } from './api-reference.js';
import { createAssetRoutes } from './assets.js';
import { createDocsRoutes, createUnbuiltDocsRoutes, defaultDocsSiteDirectory, DOCS_PATH, hasDocsSources } from './docs.js';
import { type LandingLink, renderLandingPage } from './landing.js';
import { pageHeaders } from '@retail/gateway-shared';

export type { LandingLink } from './landing.js';
export { API_REFERENCE_PATH, apiReferenceContentSecurityPolicy } from './api-reference.js';
export { DOCS_PATH } from './docs.js';

export interface PagesOptions {
  /** More links under "Try it in the browser" (the demo adds its catalogue). */
  readonly extraLinks?: readonly LandingLink[];
  /**
   * The built documentation site (docs/.vitepress/dist, or dist/docs-site in an image); default the one
   * found beside this package; null serves none.
   */
  readonly docsDirectory?: string | null;
}

export function createPages(options: PagesOptions = {}): Router {
  const docsDirectory = options.docsDirectory === undefined ? defaultDocsSiteDirectory() : (options.docsDirectory ?? undefined);
  // A checkout installed without scripts has the Markdown but no site: /docs/ says how to build it.
  const unbuiltDocs = options.docsDirectory === undefined && !docsDirectory && hasDocsSources();
  const landing = renderLandingPage({
    tryLinks: [
      { href: `${API_REFERENCE_PATH}/`, title: 'API reference', description: 'Every REST operation with its parameters and answers; try them with your key.' },
      { href: '/api/graphql', title: 'GraphiQL', description: 'Write GraphQL queries with completion and run them with your key.' },
      { href: '/console/', title: 'Console', description: 'Sign up, create API keys, see your units and usage, manage watches.' },
      ...(options.extraLinks ?? []),
    ],
    readLinks: [
      ...(docsDirectory || unbuiltDocs ? [{ href: `${DOCS_PATH}/`, title: 'Documentation', description: 'Guides for each interface, the generated reference, operations and engineering notes; searchable.' }] : []),
      { href: '/api/openapi.json', title: 'OpenAPI document', description: 'OpenAPI 3.1, for client generators and contract tools (no key needed).' },
    ],
  });

  const router = Router();
  router.get('/', pageHeaders, (_req, res) => void res.type('html').set('Cache-Control', 'no-cache').send(landing));
  // Browsers ask for it on every page without an icon link (the JSON answers): no icon, and no 404 logged.
  router.get('/favicon.ico', (_req, res) => void res.status(204).set('Cache-Control', 'public, max-age=86400').end());
  router.get(API_REFERENCE_PATH, pageHeaders, serveApiReferencePage);
  // Compressed: the API reference's bundle is 4.8 MB as served from its package, about 1.4 MB gzipped.
  router.use(API_REFERENCE_PATH, pageHeaders, compression({ threshold: 1024 }), createAssetRoutes());
  if (docsDirectory) router.use(DOCS_PATH, pageHeaders, createDocsRoutes(docsDirectory));
  else if (unbuiltDocs) router.use(DOCS_PATH, pageHeaders, createUnbuiltDocsRoutes());
  return router;
}
