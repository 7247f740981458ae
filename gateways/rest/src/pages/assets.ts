/**
 * The files the pages load, each under a fixed URL name (nothing else is served, so no path from a
 * request ever reaches the file system): Swagger UI's prebuilt browser bundle straight from its npm
 * package (the version in package-lock.json, nothing copied into the repository) and this package's
 * own stylesheet and start-up script from src/public.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';

const require = createRequire(import.meta.url);
const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));

/** src/public beside the sources; dist/public in an image (the Dockerfile copies it there). */
function publicDirectory(): string {
  return fileURLToPath(new URL('../public/', import.meta.url));
}

export const PAGE_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': join(swaggerUi, 'swagger-ui-bundle.js'),
  'swagger-ui.css': join(swaggerUi, 'swagger-ui.css'),
  'api-reference.js': join(publicDirectory(), 'api-reference.js'),
  'site.css': join(publicDirectory(), 'site.css'),
};

/** Serves PAGE_ASSETS by name; throws at start when one is missing, rather than 404 in a browser. */
export function createAssetRoutes(): Router {
  for (const [name, file] of Object.entries(PAGE_ASSETS)) {
    if (!existsSync(file)) throw new Error(`page asset ${name} is missing: ${file}`);
  }
  const router = Router();
  router.get('/:name', (req, res, next) => {
    const file = Object.hasOwn(PAGE_ASSETS, req.params.name) ? PAGE_ASSETS[req.params.name] : undefined;
    if (!file) return next();
    // Versioned by the lockfile, not the URL: revalidate rather than cache blindly.
    res.sendFile(file, { maxAge: 0, etag: true, lastModified: true });
  });
  return router;
}
