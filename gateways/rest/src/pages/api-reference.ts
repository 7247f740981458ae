/**
 * `GET /api/docs`: the interactive API reference of the OpenAPI document this gateway serves
 * (`/api/openapi.json`), rendered by Scalar (`@scalar/api-reference`'s standalone bundle, served from
 * this origin: assets.ts). Request samples in curl, TypeScript (fetch) and Python (requests); the key
 * field is filled in from the console session when the visitor is signed in on this origin
 * (public/api-reference.js); "Test Request" calls this origin (the document's server is `/`). The page
 * has a policy of its own (below): Scalar's bundle makes <style> elements and style attributes.
 */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import { PAGE_CONTENT_SECURITY_POLICY, pageHead } from '@retail/gateway-shared';

export const API_REFERENCE_PATH = '/api/docs';

/** The page, with this response's style nonce for its start-up script to give Scalar's <style> elements. */
export function renderApiReferencePage(styleNonce: string): string {
  return `<!doctype html>
<html lang="en">
${pageHead('API reference · Retail Data API', [`${API_REFERENCE_PATH}/theme.css`, `${API_REFERENCE_PATH}/site.css`], [`${API_REFERENCE_PATH}/api-reference.js`, `${API_REFERENCE_PATH}/scalar-standalone.js`]).replace('</head>', `  <meta property="csp-nonce" content="${styleNonce}">\n</head>`)}
<body>
  <header class="site-header"><p class="brand"><a href="/">Retail Data API</a> <span>API reference</span></p></header>
  <p class="reference-hint" data-key-state="pending">Signed in to the <a href="/console/">console</a>? Your key is filled in. Otherwise paste your API key under <strong>Authentication</strong>, then <strong>Test Request</strong> on any operation: calls go to this server and are charged as usual. Samples: curl, TypeScript (Node.js fetch), Python (requests).</p>
  <div id="app"></div>
</body>
</html>
`;
}

/**
 * What the pages' self-only policy refuses and Scalar's bundle (@scalar/api-reference 1.76.0) needs:
 * - <style> elements made by the bundle: its stylesheets (its CSS lives inside the JavaScript:
 *   vite-plugin-css-injected-by-js), its theme's, and CodeMirror's (style-mod), whose text grows with
 *   each editor the page mounts, so no fixed list of hashes covers them. Each response has a fresh
 *   nonce in `<meta property="csp-nonce">`: the bundle gives it to its main stylesheet itself (the
 *   meta is Scalar's own CSP hook), and the start-up script (public/api-reference.js, loaded first,
 *   from this origin) to every other <style> element a script creates. Scripts are this origin's
 *   only, so the nonce stands for "made by our scripts"; a <style> in injected markup has none and
 *   is refused.
 * - style attributes (`style-src-attr 'unsafe-inline'`): the code samples carry their line count as
 *   one (`style="--line-count: 2; …"`, a different text per sample) and a scrollbar-width probe sets
 *   two. An attribute holds declarations for its own element only: no selector can read the page, and
 *   images and fonts still load from this origin only, so nothing can be sent out through it.
 * Scripts stay `'self'` only: the bundle's one `Function('')` (zod's probe for a JIT) is refused, and
 * zod then runs without it, as it does in a Cloudflare worker. The browser test
 * (test/app/browser-pages.test.ts) fails on any refusal.
 */
export function apiReferenceContentSecurityPolicy(styleNonce: string): string {
  return PAGE_CONTENT_SECURITY_POLICY.replace("style-src 'self'", `style-src 'self' 'nonce-${styleNonce}'; style-src-attr 'unsafe-inline'`);
}

/** Serves the page under its own policy (after the shared page headers, which it overrides). */
export const serveApiReferencePage: RequestHandler = (_req, res) => {
  const styleNonce = randomBytes(18).toString('base64');
  res.set('Content-Security-Policy', apiReferenceContentSecurityPolicy(styleNonce));
  res.type('html').set('Cache-Control', 'no-store').send(renderApiReferencePage(styleNonce));
};
