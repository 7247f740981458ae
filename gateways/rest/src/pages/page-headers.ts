/**
 * Headers of every HTML page and asset the REST gateway serves (landing page, API reference,
 * documentation): a Content-Security-Policy that allows this origin only (every script, style and
 * font comes from an npm package or this repository, served here; no CDN), no framing, no sniffing.
 * `img-src data:` is for the SVG icons Swagger UI's stylesheet inlines.
 */
import type { RequestHandler } from 'express';

export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
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
