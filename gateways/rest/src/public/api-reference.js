// Starts Scalar's API reference (its standalone bundle, served from this origin) on the OpenAPI
// document this server serves, with the API key field filled in when the visitor is signed in to the
// console on this origin (docs/rest.md, "The API reference").
//
// The key comes from the console's JSON API on this same origin: its session cookie is HttpOnly,
// SameSite=Strict and scoped to /console/api, so only a same-origin request like these two carries
// it, and the console answers no cross-origin reader (no CORS headers). What it hands out is a key of
// its own (REST only, short-lived), never one of the user's keys, which the service cannot recover.
// The tab keeps it in sessionStorage (this origin, this tab) so a reload does not make another.
/* global Scalar */

// Loaded before Scalar's bundle: every <style> element a script of this page creates gets the
// response's nonce (the `csp-nonce` meta, which the bundle reads for its main stylesheet but not for
// its theme's or CodeMirror's), which the page's Content-Security-Policy allows: the bundle makes its
// styles at run time, some with text that changes as editors mount (gateways/rest/src/pages/
// api-reference.ts says why a nonce rather than hashes). Only this origin's scripts run here.
const styleNonce = document.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') ?? '';
const createElement = Document.prototype.createElement;
Document.prototype.createElement = function createElementWithNonce(name, options) {
  const element = createElement.call(this, name, options);
  if (styleNonce && String(name).toLowerCase() === 'style') element.setAttribute('nonce', styleNonce);
  return element;
};

const CONSOLE_API = '/console/api';
const STORED = 'retail.api-reference.key';
/** Shown as request samples: the three languages the documentation uses (curl, TypeScript, Python). */
const SAMPLE_CLIENTS = ['shell/curl', 'node/fetch', 'python/requests'];

/** The key this tab already holds for `accountId`, while it has more than a minute to live. */
function storedKey(accountId) {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORED) ?? 'null');
    if (stored && stored.accountId === accountId && Date.parse(stored.expiresAt) - Date.now() > 60_000) return stored.key;
  } catch {
    // Storage refused (private mode) or unreadable: ask the console again.
  }
  return undefined;
}

/** The signed-in console user's reference key, or undefined (not signed in, no console here, any failure). */
async function consoleKey() {
  try {
    const session = await fetch(`${CONSOLE_API}/session`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (!session.ok) return undefined;
    const { data } = await session.json();
    if (!data?.user) return undefined;
    const held = storedKey(data.user.accountId);
    if (held) return held;
    const minted = await fetch(`${CONSOLE_API}/reference-key`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'x-csrf-token': data.csrfToken },
    });
    if (!minted.ok) return undefined;
    const { data: reference } = await minted.json();
    try {
      sessionStorage.setItem(STORED, JSON.stringify({ accountId: data.user.accountId, key: reference.key, expiresAt: reference.expiresAt }));
    } catch {
      // Not kept: the next load asks again.
    }
    return reference.key;
  } catch {
    return undefined;
  }
}

/**
 * What Scalar hides: every other target and client of @scalar/api-reference 1.76.0 (the bundle does
 * not export its client list; the browser test fails if a new one shows up after an upgrade).
 */
const HIDDEN_CLIENTS = {
  ...Object.fromEntries(['c', 'clojure', 'csharp', 'dart', 'fsharp', 'go', 'http', 'java', 'js', 'julia', 'kotlin', 'objc', 'ocaml',
    'php', 'powershell', 'r', 'ruby', 'rust', 'swift'].map((target) => [target, true])),
  shell: ['httpie', 'wget'],
  node: ['axios', 'ofetch', 'undici'],
  python: ['python3', 'aiohttp', 'httpx_sync', 'httpx_async'],
};

async function start() {
  const key = await consoleKey();
  const signedIn = document.querySelector('[data-key-state]');
  if (signedIn) signedIn.dataset.keyState = key ? 'console' : 'none';
  Scalar.createApiReference('#app', {
    url: '/api/openapi.json',
    // Nothing leaves this origin: no fonts from Scalar's CDN, no telemetry, no request proxy (calls
    // go to this server directly), no AI agent, no MCP button, no developer toolbar.
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: true,
    documentDownloadType: 'direct',
    hiddenClients: HIDDEN_CLIENTS,
    featuredClients: SAMPLE_CLIENTS,
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    authentication: {
      preferredSecurityScheme: 'ApiKeyAuth',
      ...(key ? { securitySchemes: { ApiKeyAuth: { value: key } } } : {}),
    },
  });
}

// The bundle is the next deferred script: it has run by the time the document is parsed.
document.addEventListener('DOMContentLoaded', () => void start());
