import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';
import type { PageKind } from '../pages/types.js';

/** The classes every upstream answer falls into (one place decides; docs/architecture.md, block pages). */
export type UpstreamOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'not-found'; readonly why: string }
  | { readonly kind: 'blocked'; readonly why: string }
  | { readonly kind: 'error'; readonly why: string };

/*
 * Markers of pages that are not the page asked for. Each is specific enough not to occur on a real
 * product page (checked against every product page of the corpus): the captcha form posts to
 * /errors/validateCaptcha with a `captchacharacters` field or the 2025 `opfcaptcha` fields, the AWS
 * WAF challenge loads AwsWafIntegration, the sign-in flow's puzzle says "Solve this puzzle". The
 * comment "To discuss automated access..." is NOT a marker: the marketplace puts it on its error
 * pages too.
 */
const CAPTCHA_MARKERS = ['/errors/validatecaptcha', 'captchacharacters', 'opfcaptcha', '<title>robot check</title>'];
const WAF_MARKERS = ['awswafintegration', 'gokuprops', 'awswaf', 'challenge.js" defer'];
const SIGN_IN_PATHS = /^\/(?:ap\/(?:signin|cvf|mfa)|ax\/claim)/;
const SIGN_IN_MARKERS = ['name="signin"', 'id="ap_email"', 'id="ap_password"', 'solve this puzzle', 'authentication required'];
/** A real product (or other content) page carries one of these; a sign-in wall does not. */
const CONTENT_MARKERS = ['id="producttitle"', 'id="dp"', 'id="dp-container"', 'id="search"', 'data-component-type="s-search-result"'];

/** The "dogs" pages: 404 "couldn't find that page" and 500/503 "something went wrong". */
const NOT_FOUND_MARKERS = ['<title>page not found</title>', "couldn't find that page", 'cs_404_', 'seite wurde nicht gefunden', 'page introuvable'];
const ERROR_PAGE_MARKERS = ['<title>sorry! something went wrong!</title>', 'error/500_503', 'cs_503_', 'cs_500_'];

function includesAny(haystack: string, needles: readonly string[]): string | undefined {
  return needles.find((n) => haystack.includes(n));
}

/**
 * Classifies one upstream answer by status, final URL and body. Blocks win over statuses (the
 * marketplace serves captchas with 200, 202 and 503 alike); then not-found; then errors.
 */
export function classifyUpstream(status: number, html: string, finalUrl: string): UpstreamOutcome {
  const lower = html.toLowerCase();
  const path = safePath(finalUrl);

  const captcha = includesAny(lower, CAPTCHA_MARKERS);
  if (captcha) return { kind: 'blocked', why: `captcha page (${captcha})` };
  const waf = includesAny(lower, WAF_MARKERS);
  if (waf) return { kind: 'blocked', why: `bot challenge (${waf})` };
  if (SIGN_IN_PATHS.test(path)) return { kind: 'blocked', why: `redirected to sign-in (${path})` };
  const hasContent = includesAny(lower, CONTENT_MARKERS) !== undefined;
  const signIn = includesAny(lower, SIGN_IN_MARKERS);
  if (signIn && !hasContent) return { kind: 'blocked', why: `sign-in wall (${signIn})` };

  if (status === 404 || status === 410) return { kind: 'not-found', why: `HTTP ${status}` };
  const notFound = !hasContent ? includesAny(lower, NOT_FOUND_MARKERS) : undefined;
  if (notFound) return { kind: 'not-found', why: `not-found page (${notFound})` };

  if (status >= 500) return { kind: 'error', why: `HTTP ${status}` };
  if (status < 200 || status >= 300) return { kind: 'error', why: `unexpected HTTP ${status}` };
  const errorPage = !hasContent ? includesAny(lower, ERROR_PAGE_MARKERS) : undefined;
  if (errorPage) return { kind: 'error', why: `error page (${errorPage})` };
  if (html.trim() === '') return { kind: 'error', why: 'empty body' };
  return { kind: 'ok' };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname.toLowerCase();
  } catch {
    return '';
  }
}

const NOT_FOUND_MESSAGES: Partial<Record<PageKind, string>> = {
  product: 'the marketplace has no such product',
  seller: 'the marketplace has no such seller',
  author: 'the marketplace has no such author',
  category: 'the marketplace has no such category',
  bestsellers: 'the marketplace has no such category',
};

/**
 * The CoreError of a failed outcome (public message plus a private cause); undefined for ok. A
 * Retry-After the marketplace sent travels with blocks and errors (clients see it on 503/502).
 */
export function outcomeError(outcome: UpstreamOutcome, kind: PageKind, url: string, retryAfterSeconds?: number): CoreError | undefined {
  const retry = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
  switch (outcome.kind) {
    case 'ok':
      return undefined;
    case 'not-found':
      return new CoreError(ErrorReason.NOT_FOUND, NOT_FOUND_MESSAGES[kind] ?? 'the marketplace has no such item', {
        cause: new Error(`${url}: ${outcome.why}`),
      });
    case 'blocked':
      return new CoreError(ErrorReason.UPSTREAM_BLOCKED, 'the marketplace blocked the request (captcha, bot check or sign-in wall); retry later', {
        ...retry,
        cause: new Error(`${url}: ${outcome.why}`),
      });
    case 'error':
      return new CoreError(ErrorReason.UPSTREAM_ERROR, undefined, { ...retry, cause: new Error(`${url}: ${outcome.why}`) });
  }
}
