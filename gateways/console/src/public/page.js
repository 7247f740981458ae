// What every part of the console page shares: the JSON API client (with the session's CSRF token),
// the status and problem messages, and small DOM helpers. Every server value is written with
// textContent, never as HTML.

export const $ = (id) => document.getElementById(id);

let csrfToken = '';
let onSessionProblem = () => Promise.resolve();

export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called when a request finds the session ended (401) or the token stale (403): reload the state. */
export function whenSessionProblem(reload) {
  onSessionProblem = reload;
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`api/${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = await response.json().catch(() => ({ success: false, errors: [{ code: response.status, message: 'Unexpected response' }] }));
  if (!response.ok) {
    const error = new Error(payload.errors?.[0]?.message ?? `Request failed (${response.status})`);
    error.status = response.status;
    error.errors = payload.errors ?? [];
    error.retryAfter = response.headers.get('Retry-After');
    throw error;
  }
  return payload.data;
}

export function say(message) {
  $('problem').textContent = '';
  $('notice').textContent = message;
}

export function complain(error) {
  $('notice').textContent = '';
  $('problem').textContent = error.message;
  // An ended session (expiry, sign-out elsewhere) or a stale CSRF token: show the current state.
  if (error.status === 401 || error.status === 403) {
    onSessionProblem()
      .then(() => {
        if (error.status === 401) $('problem').textContent = 'Your session has ended. Please sign in again.';
      })
      .catch(() => {});
  }
}

export const formatDate = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');

export function timeElement(iso) {
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = formatDate(iso);
  return time;
}

export function timeCell(iso, emptyText) {
  const cell = document.createElement('td');
  if (!iso) {
    cell.textContent = emptyText;
    cell.className = 'muted';
    return cell;
  }
  cell.append(timeElement(iso));
  return cell;
}

export function textCell(text, className) {
  const cell = document.createElement('td');
  cell.textContent = text;
  if (className) cell.className = className;
  return cell;
}

/**
 * Gives every cell of a table its column's header as `data-label`: on a narrow screen the stylesheet
 * stacks each row and shows the label beside the value (console.css, .stack-table).
 */
export function labelColumns(table) {
  // A header that is only there for screen readers (the actions column) gets no visible label.
  const headers = [...table.querySelectorAll('thead th')].map((th) => (th.querySelector('.visually-hidden') ? '' : th.textContent.trim()));
  // Explicit roles: browsers drop a table's semantics once CSS stops displaying it as a table.
  table.setAttribute('role', 'table');
  for (const group of [table.tHead, ...table.tBodies]) group?.setAttribute('role', 'rowgroup');
  for (const th of table.querySelectorAll('thead th')) th.setAttribute('role', 'columnheader');
  for (const row of table.rows) row.setAttribute('role', 'row');
  for (const row of table.tBodies[0]?.rows ?? []) {
    [...row.cells].forEach((cell, i) => {
      cell.dataset.label = headers[i] ?? '';
      cell.setAttribute('role', 'cell');
    });
  }
}

export function button(text, className, onClick, label) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  if (className) element.className = className;
  if (label) element.setAttribute('aria-label', label);
  element.addEventListener('click', onClick);
  return element;
}

/**
 * One page of a cursor-paged list into its container: after the pages before it (`append`) or in
 * their place. The "more" button shows while there is a next page; `ids.frame` (the container, or
 * a table's wrapper) gives way to the empty note when nothing is listed.
 */
export function showListPage(ids, items, append, nextCursor) {
  if (append) $(ids.list).append(...items);
  else $(ids.list).replaceChildren(...items);
  $(ids.more).hidden = !nextCursor;
  const empty = $(ids.list).children.length === 0;
  $(ids.frame ?? ids.list).hidden = empty;
  $(ids.empty).hidden = !empty;
}

/** Copies a read-only input's value; returns the message to show beside it. */
export async function copyFrom(input) {
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    }
  } catch {
    copied = false;
  }
  if (!copied) {
    input.select();
    copied = document.execCommand?.('copy') ?? false;
  }
  return copied ? 'Copied to the clipboard.' : 'Copy failed: the value is selected, press Ctrl+C (or ⌘C).';
}

/**
 * A confirmation through the page's one native <dialog> (keyboard usable, the keep button focused
 * first): `question` its title, `text` what going ahead does, `confirm` the button that goes ahead,
 * `keep` the one that does not. Focus returns to `opener` when it does not; resolves true to go ahead.
 */
export function confirmWith({ question, text, confirm, keep = 'Cancel' }, opener) {
  const dialog = $('confirm-dialog');
  $('confirm-title').textContent = question;
  $('confirm-text').textContent = text;
  $('confirm-go').textContent = confirm;
  $('confirm-keep').textContent = keep;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        const confirmed = dialog.returnValue === 'confirm';
        if (!confirmed) opener.focus();
        resolve(confirmed);
      },
      { once: true },
    );
    dialog.showModal();
  });
}
