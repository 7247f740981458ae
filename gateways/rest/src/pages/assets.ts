/**
 * The files the pages load: Scalar's prebuilt API reference bundle (@scalar/api-reference's
 * `dist/browser/standalone.js`), the pages' shared theme (gateways/shared), and this package's own
 * stylesheet and start-up script from src/public (dist/public in an image, which the Dockerfile copies
 * there, with the bundle beside them as `scalar-standalone.js`: the package is a dev dependency, so its
 * ~250 packages never enter the image, only the one file the browser loads).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { type FixedFiles, THEME_STYLESHEET, serveFixedFiles } from '@retail/gateway-shared';

const require = createRequire(import.meta.url);
const publicDirectory = fileURLToPath(new URL('../public/', import.meta.url));

/** The image's copy when there is one, else the installed package's (a checkout after `npm ci`). */
function scalarBundle(): string {
  const copied = join(publicDirectory, 'scalar-standalone.js');
  if (existsSync(copied)) return copied;
  return join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

export const PAGE_ASSETS: FixedFiles = {
  'scalar-standalone.js': scalarBundle(),
  'api-reference.js': join(publicDirectory, 'api-reference.js'),
  'theme.css': THEME_STYLESHEET,
  'site.css': join(publicDirectory, 'site.css'),
};

export function createAssetRoutes(): Router {
  return Router().get('/:name', serveFixedFiles(PAGE_ASSETS));
}
