/**
 * Serves the demo catalogue at DEMO_CATALOGUE_PATH (HTML) and DEMO_CATALOGUE_JSON_PATH (JSON), free
 * and without a key, like the OpenAPI document. A stack that is not in demo mode (it reads the
 * live marketplace, so it has no recorded pages to list) answers both paths with a 404 that says so.
 */
import { fileURLToPath } from 'node:url';
import { Router, type Request, type Response } from 'express';
import { errorEnvelope } from '@retail/contract';
import { pageHeaders, serveFixedFiles, THEME_STYLESHEET } from '@retail/gateway-shared';
import { catalogueDocument, type DemoCatalogue } from './model.js';
import { cataloguePage, escapeHtml } from './page.js';
import { DEMO_ASSETS_PATH, DEMO_CATALOGUE_JSON_PATH, DEMO_CATALOGUE_PATH } from './paths.js';

const ASSETS = {
  'theme.css': THEME_STYLESHEET,
  'catalogue.css': fileURLToPath(new URL('./public/catalogue.css', import.meta.url)),
  'catalogue.js': fileURLToPath(new URL('./public/catalogue.js', import.meta.url)),
};

const NOT_IN_DEMO_MODE =
  'There is no demo catalogue: this stack is not in demo mode (it reads the live marketplace, where any identifier may exist). ' +
  'Run `npm run demo` to serve recorded pages and list what they can answer.';

/** The origin the client used, when its Host header is a plain host[:port]; '' (relative links) otherwise. */
function baseOf(req: Request): string {
  const host = req.get('host') ?? '';
  return /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host) ? `${req.protocol}://${host}` : '';
}

function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).type('html').send(html);
}

const noCataloguePage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>No demo catalogue</title></head>
<body><main><h1>No demo catalogue</h1><p>${escapeHtml(NOT_IN_DEMO_MODE)}</p></main></body></html>
`;

export function createDemoCatalogueRouter(catalogue: DemoCatalogue | undefined): Router {
  const router = Router();
  router.get(DEMO_CATALOGUE_JSON_PATH, (req, res) => {
    if (!catalogue) return void res.status(404).json(errorEnvelope(404, NOT_IN_DEMO_MODE));
    res.json(catalogueDocument(catalogue, baseOf(req)));
  });
  router.get(`${DEMO_ASSETS_PATH}/:name`, pageHeaders, serveFixedFiles(ASSETS));
  router.get(DEMO_CATALOGUE_PATH, pageHeaders, (req, res) => {
    if (!catalogue) return sendHtml(res, 404, noCataloguePage());
    sendHtml(res, 200, cataloguePage(catalogue, baseOf(req)));
  });
  return router;
}
