/**
 * `GET /api/docs`: the interactive API reference of the OpenAPI document this gateway serves
 * (`/api/openapi.json`), rendered by Scalar (`@scalar/api-reference`'s standalone bundle, served from
 * this origin: assets.ts). Request samples in curl, TypeScript (fetch) and Python (requests); the key
 * field is filled in from the console session when the visitor is signed in on this origin
 * (public/api-reference.js); "Test Request" calls this origin (the document's server is `/`).
 */
import type { RequestHandler } from 'express';
import { PAGE_CONTENT_SECURITY_POLICY, pageHead } from '@retail/gateway-shared';

export const API_REFERENCE_PATH = '/api/docs';

export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
${pageHead('API reference · Retail Data API', [`${API_REFERENCE_PATH}/theme.css`, `${API_REFERENCE_PATH}/site.css`], [`${API_REFERENCE_PATH}/scalar-standalone.js`, `${API_REFERENCE_PATH}/api-reference.js`])}
<body>
  <header class="site-header"><p class="brand"><a href="/">Retail Data API</a> <span>API reference</span></p></header>
  <p class="reference-hint" data-key-state="pending">Signed in to the <a href="/console/">console</a>? Your key is filled in. Otherwise paste your API key under <strong>Authentication</strong>, then <strong>Test Request</strong> on any operation: calls go to this server and are charged as usual.</p>
  <div id="app"></div>
</body>
</html>
`;

/**
 * What the pages' self-only policy refuses and Scalar's bundle (@scalar/api-reference 1.76.0) needs:
 * - three <style> elements, allowed by the hash of their exact text, nothing else inline: the two
 *   stylesheets the bundle injects at start (vite-plugin-css-injected-by-js: its CSS lives inside the
 *   JavaScript) and the one of its theme;
 * - style attributes (`style-src-attr 'unsafe-inline'`): the code samples carry their line count as
 *   one (`style="--line-count: 2; …"`, a different text per sample, so no fixed hash can name it) and
 *   the scrollbar-width probe sets two. An attribute holds declarations for its own element only: no
 *   selector can read the page, and images and fonts still load from this origin only, so nothing
 *   can be sent out through it. Browsers without `style-src-attr` (before Safari 15.4) fall back
 *   to `style-src` and draw the samples without their line numbers' width.
 * Scripts stay `'self'` only: the bundle's one `Function('')` (zod's probe for a JIT) is refused, and
 * zod then runs without it, as it does in a Cloudflare worker. After an upgrade the browser test
 * (test/app/browser-pages.test.ts) fails on each refused <style> and chromium's message names the hash
 * to put here.
 */
const SCALAR_STYLE_HASHES = [
  'sha256-QpRH++jfSE25E/ku5JwG+oucjRD32SqdyuYxGFVNDSA=',
  'sha256-l/2OpPg0d+2VLTLgwjf5mQo2CYwHDEqdj5TjbfEyVJI=',
  'sha256-T13Uev3xCax2N28XaoAE8DOzQZKvPp7ZQVAi1iRREjo=',
];

/** The pages' policy with Scalar's hashed <style> elements and style attributes allowed; every other directive is the same. */
export const API_REFERENCE_CONTENT_SECURITY_POLICY = PAGE_CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  `style-src 'self' ${SCALAR_STYLE_HASHES.map((hash) => `'${hash}'`).join(' ')}; style-src-attr 'unsafe-inline'`,
);

/** Sets the API reference page's own policy (after the shared page headers, which it overrides). */
export const apiReferenceHeaders: RequestHandler = (_req, res, next) => {
  res.set('Content-Security-Policy', API_REFERENCE_CONTENT_SECURITY_POLICY);
  next();
};
