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
import { type FixedFiles, pageHead, pageHeaders, serveFixedFiles } from '@retail/gateway-shared';

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

const asset = (name: string) => `${GRAPHIQL_ASSETS_PATH}/${name}`;

const PAGE = `<!doctype html>
<html lang="en">
${pageHead('GraphiQL · Retail Data API', [asset('graphiql.css'), asset('page.css')], [asset('react.js'), asset('react-dom.js'), asset('graphiql.js'), asset('start.js')])}
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

/** Headers of the page (the gateways' page headers): Apollo sets only its content type, so they are set before Apollo answers. */
export const graphiqlPageHeaders: RequestHandler = (req, res, next) => {
  res.set('Cache-Control', 'no-cache');
  pageHeaders(req, res, next);
};

/** `GET /api/graphql/graphiql/<name>`: the page's scripts and styles. */
export function createGraphiqlAssets(): Router {
  return Router().get(`${GRAPHIQL_ASSETS_PATH}/:name`, pageHeaders, serveFixedFiles(ASSETS));
}
