/**
 * The files the pages load: Swagger UI's prebuilt browser bundle straight from its npm package, and
 * the pages' shared theme (gateways/shared), this package's own stylesheet and start-up script from src/public (dist/public in an image, which
 * the Dockerfile copies there).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { type FixedFiles, THEME_STYLESHEET, serveFixedFiles } from '@retail/gateway-shared';

const require = createRequire(import.meta.url);
const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));
const publicDirectory = fileURLToPath(new URL('../public/', import.meta.url));

export const PAGE_ASSETS: FixedFiles = {
  'swagger-ui-bundle.js': join(swaggerUi, 'swagger-ui-bundle.js'),
  'swagger-ui.css': join(swaggerUi, 'swagger-ui.css'),
  'api-reference.js': join(publicDirectory, 'api-reference.js'),
  'theme.css': THEME_STYLESHEET,
  'site.css': join(publicDirectory, 'site.css'),
};

export function createAssetRoutes(): Router {
  return Router().get('/:name', serveFixedFiles(PAGE_ASSETS));
}
