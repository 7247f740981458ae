/**
 * What every HTML page of the gateways has in common (the REST gateway's landing page, API reference
 * and documentation; the GraphQL gateway's GraphiQL): a head that loads files from this origin only,
 * and headers that allow nothing else. The Content-Security-Policy allows this origin only (every
 * script, style and font comes from an npm package or this repository, served here; no CDN); `data:`
 * images and fonts are the icons and fonts the bundled stylesheets (Scalar, GraphiQL) inline. The API
 * reference adds a style nonce to this policy (gateways/rest/src/pages/api-reference.ts says why).
 * No framing, no sniffing, no referrer.
 */
import type { RequestHandler } from 'express';

export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const pageHeaders: RequestHandler = (_req, res, next) => {
  res.set({
    'Content-Security-Policy': PAGE_CONTENT_SECURITY_POLICY,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  next();
};

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page's `<head>`: its title, no icon (no request for one), then its stylesheets and deferred scripts, in order. */
export function pageHead(title: string, styles: readonly string[], scripts: readonly string[] = []): string {
  return [
    '<head>',
    '  <meta charset="utf-8">',
    '  <meta name="viewport" content="width=device-width, initial-scale=1">',
    `  <title>${escapeHtml(title)}</title>`,
    '  <link rel="icon" href="data:,">',
    ...styles.map((href) => `  <link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...scripts.map((src) => `  <script src="${escapeHtml(src)}" defer></script>`),
    '</head>',
  ].join('\n');
}
