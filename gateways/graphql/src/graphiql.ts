/**
 * GraphiQL for a browser's `GET /api/graphql` (`Accept: text/html`), in place of Apollo's default
 * landing page, which loads its sandbox from Apollo's CDN. Installed through Apollo's own mechanism
 * (a plugin whose `renderLandingPage` returns the page), so Apollo keeps deciding who gets HTML; the
 * page loads only files served here from npm packages: graphiql's prebuilt UMD bundle (4.1.2, the
 * last major that ships one) on React 18's UMD builds (React 19 has none), plus this package's
 * start-up script. The Headers tab holds the API key; requests go to this origin.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApolloServerPlugin } from '@apollo/server';
import { Router, type RequestHandler } from 'express';
import { type FixedFiles, serveFixedFiles } from '@retail/gateway-shared';

/** Where the page's files are served, under the GraphQL path the Ingress routes to this gateway. */
export const GRAPHIQL_ASSETS_PATH = '/api/graphql/graphiql';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const publicDir = fileURLToPath(new URL('./public/', import.meta.url));

/** URL name → file. Only these are served. */
const ASSETS: FixedFiles = {
  'react.js': join(packageDir('react'), 'umd/react.production.min.js'),
  'react-dom.js': join(packageDir('react-dom'), 'umd/react-dom.production.min.js'),
  'graphiql.js': join(packageDir('graphiql'), 'graphiql.min.js'),
  'graphiql.css': join(packageDir('graphiql'), 'graphiql.min.css'),
  'start.js': join(publicDir, 'graphiql-start.js'),
  'page.css': join(publicDir, 'graphiql-page.css'),
};

/** Self only; `data:` for the fonts and icons graphiql's stylesheet inlines. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>GraphiQL · Retail Data API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}/graphiql.css">
  <link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}/page.css">
  <script src="${GRAPHIQL_ASSETS_PATH}/react.js" defer></script>
  <script src="${GRAPHIQL_ASSETS_PATH}/react-dom.js" defer></script>
  <script src="${GRAPHIQL_ASSETS_PATH}/graphiql.js" defer></script>
  <script src="${GRAPHIQL_ASSETS_PATH}/start.js" defer></script>
</head>
<body>
  <div id="graphiql" data-endpoint="/api/graphql">Loading GraphiQL…</div>
</body>
</html>
`;

/** The Apollo plugin that makes GraphiQL the landing page. */
export function graphiqlLandingPage(): ApolloServerPlugin {
  return {
    async serverWillStart() {
      return { async renderLandingPage() { return { html: PAGE }; } };
    },
  };
}

/** Headers of the page: Apollo sets only its content type, so the CSP is set before Apollo answers. */
export const graphiqlPageHeaders: RequestHandler = (_req, res, next) => {
  res.set({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache' });
  next();
};

/** `GET /api/graphql/graphiql/<name>`: the page's scripts and styles. */
export function createGraphiqlAssets(): Router {
  return Router().get(`${GRAPHIQL_ASSETS_PATH}/:name`, serveFixedFiles(ASSETS, { 'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'same-origin' }));
}
