// The Operator view (operators only; the API refuses everyone else anyway): find an archived
// marketplace page by marketplace, kind, identifier and time, list that identifier's pages to pick
// from, and show the chosen one's facts and what its parser read. Archived content is marketplace
// HTML and parser output: every value is written with textContent, the raw page is only a download
// (served as sandboxed plain text), never rendered here.

import { $, api, button, complain, formatDate, labelColumns, say, textCell, timeCell } from './page.js';

let optionsLoaded = false;
/** The identifier the list and the shown page belong to. */
let current = null;

function fillOptions({ marketplaces, kinds, archive }) {
  const option = (value) => Object.assign(document.createElement('option'), { value, textContent: value });
  $('operator-marketplace').replaceChildren(...marketplaces.map(option));
  $('operator-kind').replaceChildren(...kinds.map(option));
  $('operator-unavailable').hidden = archive;
}

export async function showOperator() {
  if (!optionsLoaded) {
    fillOptions(await api('GET', 'operator/options'));
    optionsLoaded = true;
  }
}

/** Signed out or another operator: nothing of the last search stays. */
export function hideOperator() {
  current = null;
  $('operator-form').reset();
  $('operator-pages-body').replaceChildren();
  $('operator-pages-section').hidden = true;
  $('operator-page').hidden = true;
  $('operator-parsed').textContent = '';
}

const query = (values) => new URLSearchParams(Object.entries(values).filter(([, value]) => value !== undefined && value !== ''));

function showFieldErrors(error) {
  const form = $('operator-form');
  for (const slot of form.querySelectorAll('.field-error')) slot.textContent = '';
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  let general = '';
  for (const problem of error.errors ?? []) {
    const slot = problem.path?.[0] && $(`operator-${problem.path[0]}-error`);
    if (slot) {
      slot.textContent = problem.message;
      form.querySelector(`[name="${problem.path[0]}"]`)?.setAttribute('aria-invalid', 'true');
    } else general ||= problem.message;
  }
  $('operator-error').textContent = general || (error.errors?.length ? '' : error.message);
  (form.querySelector('[aria-invalid="true"]') ?? $('operator-error')).focus();
}

$('operator-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const submit = event.submitter ?? $('operator-form').querySelector('button[type="submit"]');
  submit.disabled = true;
  const values = Object.fromEntries(new FormData($('operator-form')));
  // datetime-local is the operator's local time without an offset: sent as UTC, which the API requires.
  const at = values.at ? new Date(values.at) : undefined;
  const search = { marketplace: values.marketplace, kind: values.kind, identifier: values.identifier.trim(), at: at && !Number.isNaN(at.getTime()) ? at.toISOString() : values.at };
  try {
    const found = await findPage(search);
    for (const slot of $('operator-form').querySelectorAll('.field-error')) slot.textContent = '';
    current = { marketplace: search.marketplace, kind: search.kind, identifier: search.identifier };
    // The pages up to the one found: with a time given, those at or before it; else the newest.
    await listPages(search.at ? found?.page.fetchedAt : undefined, found?.page.id);
    if (!found) say(`No archived ${search.kind} page of ${search.marketplace} ${search.identifier}.`);
  } catch (error) {
    if (error.status === 401 || (error.status === 403 && !error.errors?.[0]?.path)) complain(error);
    else showFieldErrors(error);
  } finally {
    submit.disabled = false;
  }
});

/** One page (404: none, shown as such); undefined when the archive has none. */
async function findPage(search) {
  try {
    const found = await api('GET', `operator/page?${query(search)}`);
    showPage(found);
    return found;
  } catch (error) {
    if (error.status !== 404) throw error;
    $('operator-page').hidden = true;
    return undefined;
  }
}

async function listPages(to, chosenId) {
  const { pages } = await api('GET', `operator/pages?${query({ ...current, to, limit: '50' })}`);
  $('operator-pages-hint').textContent = `${current.marketplace} · ${current.kind} · ${current.identifier}: ${to ? `the latest ${pages.length} up to ${formatDate(to)}` : `the latest ${pages.length}`}, newest first.`;
  $('operator-pages-body').replaceChildren(...pages.map((page) => pageRow(page, page.id === chosenId)));
  labelColumns($('operator-pages-table'));
  $('operator-pages-table').hidden = pages.length === 0;
  $('operator-pages-empty').hidden = pages.length > 0;
  $('operator-pages-section').hidden = false;
}

function pageRow(page, chosen) {
  const row = document.createElement('tr');
  if (chosen) row.setAttribute('aria-current', 'true');
  const actions = document.createElement('td');
  actions.append(button('Show', 'secondary small', () => choose(page, row), `Show the page fetched ${formatDate(page.fetchedAt)}`));
  row.append(
    timeCell(page.fetchedAt, ''),
    textCell(page.reason),
    textCell(String(page.status), 'number'),
    textCell(page.reparsedWith ? `${page.parser} → ${page.reparsedWith}` : page.parser),
    textCell(page.missingFields.join(', ') || '—'),
    actions,
  );
  return row;
}

async function choose(page, row) {
  try {
    showPage(await api('GET', `operator/page?${query({ ...current, at: page.fetchedAt, id: page.id })}`));
    for (const other of $('operator-pages-body').rows) other.removeAttribute('aria-current');
    row.setAttribute('aria-current', 'true');
    $('operator-page-title').focus();
  } catch (error) {
    complain(error);
  }
}

function showPage({ page, parsed, contentType }) {
  $('operator-page-title').textContent = `${page.marketplace} ${page.kind} ${page.identifier}`;
  $('operator-page-fetched').replaceChildren(Object.assign(document.createElement('time'), { dateTime: page.fetchedAt, textContent: `${formatDate(page.fetchedAt)} (${page.fetchedAt})` }));
  $('operator-page-url').textContent = page.url;
  $('operator-page-status').textContent = String(page.status);
  $('operator-page-reason').textContent = page.reason;
  $('operator-page-parser').textContent = page.parser;
  $('operator-page-reparsed').textContent = page.reparsedWith ?? 'Not re-parsed';
  $('operator-page-missing').textContent = page.missingFields.join(', ') || 'None';
  $('operator-page-bytes').textContent = `${page.storedBytes.toLocaleString()} bytes compressed (${contentType || 'no content type'})`;
  const raw = $('operator-page-raw');
  raw.href = `api/operator/page/raw?${query({ marketplace: page.marketplace, kind: page.kind, identifier: page.identifier, at: page.fetchedAt, id: page.id })}`;
  raw.setAttribute('aria-label', `Download the raw page of ${page.identifier} fetched ${formatDate(page.fetchedAt)}`);
  // Parser output may hold anything the marketplace wrote: text only.
  $('operator-parsed').textContent = parsed === null ? 'The parser could not read this page.' : JSON.stringify(parsed, null, 2);
  $('operator-page').hidden = false;
}
