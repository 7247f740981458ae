/**
 * Third-party browser files the page loads, served from this origin (the CSP allows no other):
 * uPlot, the Watches page's chart, straight from its npm package, so its version is the one in
 * package-lock.json and nothing is copied into the repository.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';

const require = createRequire(import.meta.url);

/** URL name → file of an installed package. Only these are served. */
const FILES: Readonly<Record<string, string>> = {
  'uplot.js': join(dirname(require.resolve('uplot/package.json')), 'dist/uPlot.esm.js'),
  'uplot.css': join(dirname(require.resolve('uplot/package.json')), 'dist/uPlot.min.css'),
};

export function createVendorRoutes(): Router {
  const router = Router();
  router.get('/:name', (req, res, next) => {
    const file = Object.hasOwn(FILES, req.params.name) ? FILES[req.params.name] : undefined;
    if (!file) return next();
    // Versioned by the lockfile, not the URL: revalidate (ETag) rather than cache blindly.
    res.sendFile(file, { maxAge: 0 });
  });
  return router;
}
