/**
 * `GET /docs/`: the documentation site, served from the files VitePress built out of docs/*.md
 * (docs/.vitepress/config.ts: sections, local search, code samples), so that the landing page's
 * "Documentation" link works on any deployment without a forge or a CDN. The build runs on `npm ci`
 * (the root `prepare` script) and in the Dockerfile's build stage; this file only serves its output,
 * never a path outside it (serve-static refuses `..` and dotfiles).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, Router } from 'express';
import { PAGE_CONTENT_SECURITY_POLICY, escapeHtml, pageHead } from '@retail/gateway-shared';

export const DOCS_PATH = '/docs';
/** What builds the site, for the page a checkout without it shows. */
export const DOCS_BUILD_COMMAND = 'npm run docs:build';

/**
 * The built site: the repository's docs/.vitepress/dist (four levels up from src/pages), else the copy
 * an image keeps in dist/docs-site (see the Dockerfile). Undefined when neither was built.
 */
export function defaultDocsSiteDirectory(): string | undefined {
  const candidates = ['../../../../docs/.vitepress/dist/', '../docs-site/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/** Whether this checkout has the Markdown the site is built from (a repository, not an image). */
export function hasDocsSources(): boolean {
  return existsSync(fileURLToPath(new URL('../../../../docs/.vitepress/config.ts', import.meta.url)));
}

function htmlFiles(directory: string, prefix = ''): string[] {
  return readdirSync(join(directory, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : htmlFiles(directory, path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

/**
 * The `<style>` the theme's colour-mode switch (@vueuse/core's useColorMode, `disableTransition`) adds to
 * the head for one frame whenever it applies the light or dark class, on every page load, so the switch
 * does not animate every colour. Its text is a constant of that library; test/app/docs-site.test.ts
 * fails on any CSP violation in chromium, so an upgrade that changes it is caught.
 */
const DISABLE_TRANSITIONS_CSS = '*,*::before,*::after{-webkit-transition:none!important;-moz-transition:none!important;-o-transition:none!important;-ms-transition:none!important;transition:none!important}';

/**
 * The site's Content-Security-Policy: the pages' self-only policy with two additions, each as narrow as
 * the built pages need.
 * - script-src: the SHA-256 of each inline script the built pages hold (VitePress puts two in every
 *   head: the dark-mode check, which must run before the first paint to avoid a flash, and the macOS
 *   check for the search shortcut's label). Hashed from the files served, so a rebuild that changes
 *   them stays allowed, and no other inline script ever runs.
 * - style-src: the SHA-256 of the one `<style>` element the theme adds at run time (DISABLE_TRANSITIONS_CSS).
 * - style-src-attr 'unsafe-inline': the pages' `style="…"` attributes (the code highlighter's colours as
 *   custom properties, the layout's viewport height). Attributes only: other `<style>` elements and
 *   stylesheets stay self-only, and an attribute cannot load anything (img-src, font-src).
 */
export function docsContentSecurityPolicy(directory: string): string {
  const hashes = new Set<string>();
  for (const file of htmlFiles(directory)) {
    for (const match of readFileSync(join(directory, file), 'utf8').matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      if (match[1]) hashes.add(`'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`);
    }
  }
  const styleHash = `'sha256-${createHash('sha256').update(DISABLE_TRANSITIONS_CSS).digest('base64')}'`;
  return PAGE_CONTENT_SECURITY_POLICY.split('; ')
    .map((directive) => (directive.startsWith('script-src ') ? [directive, ...[...hashes].sort()].join(' ') : directive))
    .map((directive) => (directive.startsWith('style-src ') ? `${directive} ${styleHash}` : directive))
    .concat("style-src-attr 'unsafe-inline'")
    .join('; ');
}

/** The built site under `/docs/`, with its own CSP; `name.md` (the links of the repository's pages) leads to `name.html`. */
export function createDocsRoutes(directory: string): Router {
  const policy = docsContentSecurityPolicy(directory);
  const notFound = readFileSync(join(directory, '404.html'));
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Content-Security-Policy', policy);
    next();
  });
  router.get('/', (req, res, next) => {
    // `/docs` → `/docs/`, so the pages' relative asset and link URLs resolve under it.
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(308, `${DOCS_PATH}/`);
    next();
  });
  router.get(/^\/([a-z0-9][a-z0-9-]*)\.md$/, (req, res) => res.redirect(301, `${DOCS_PATH}/${(req.params as Record<string, string>)[0]}.html`));
  router.use(express.static(directory, {
    index: 'index.html',
    redirect: false,
    // Hashed file names under assets/ never change their content; pages are checked on each visit.
    setHeaders: (res, path) => res.set('Cache-Control', path.includes(`${join(directory, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
  }));
  router.use(((_req, res) => void res.status(404).type('html').set('Cache-Control', 'no-cache').send(notFound)) as RequestHandler);
  return router;
}

/** `/docs/` in a checkout whose site was not built (`npm ci --ignore-scripts`): a page that says how to build it. */
export function createUnbuiltDocsRoutes(): Router {
  const body = `<!doctype html>
<html lang="en">
${pageHead('Documentation · Retail Data API', ['/api/docs/theme.css', '/api/docs/site.css'])}
<body class="page">
  <main id="main" class="doc">
    <h1>The documentation site is not built</h1>
    <p>It is built from <code>docs/</code> by <code>npm ci</code>; after an install without scripts, run <code>${escapeHtml(DOCS_BUILD_COMMAND)}</code> and reload this page.</p>
  </main>
</body>
</html>
`;
  return Router().use((_req, res) => void res.status(503).type('html').set('Cache-Control', 'no-cache').send(body));
}
