// The Watches view: create a watch (the webhook secret shown once), the list of watches with
// pause / resume and delete, and one watch's detail (watch-detail.js).

import { oneTimeSecret } from './one-time-secret.js';
import { $, api, button, complain, confirmWith, say, showListPage, timeElement } from './page.js';
import { closeWatchDetail, openWatchDetail } from './watch-detail.js';
import { clearWatchFormErrors, fillWatchForm, showLookup, showWatchFormErrors, watchBody } from './watch-form.js';
import { conditionText, intervalText, statusText } from './watch-text.js';

let optionsLoaded = false;
let nextCursor = null;

export async function showWatches() {
  if (!optionsLoaded) {
    fillWatchForm(await api('GET', 'watches/options'));
    optionsLoaded = true;
  }
  await loadWatches();
}

/** Signed out: nothing of the last account stays on the page. */
export function hideWatches() {
  secret.hide();
  closeWatchDetail();
  $('watch-list').replaceChildren();
  $('watch-form').reset();
}

async function loadWatches(more = false) {
  const query = new URLSearchParams({ limit: '50', ...(more && nextCursor ? { cursor: nextCursor } : {}) });
  const { retailWatches } = await api('GET', `watches?${query}`);
  const items = retailWatches.watches.map(watchItem);
  nextCursor = retailWatches.nextCursor;
  showListPage({ list: 'watch-list', more: 'watches-more', empty: 'watches-empty' }, items, more, nextCursor);
}

function watchItem(watch) {
  const item = document.createElement('li');
  item.className = 'watch';
  item.dataset.watchId = watch.id;
  const name = watch.label ?? watch.asin;

  const head = document.createElement('div');
  head.className = 'watch-head';
  const title = document.createElement('h3');
  title.textContent = name;
  const status = document.createElement('span');
  status.className = `status ${watch.status === 'ACTIVE' ? 'active' : 'paused'}`;
  status.textContent = statusText(watch);
  head.append(title, status);

  const facts = document.createElement('p');
  facts.className = 'watch-meta';
  facts.append(`${watch.asin} · ${watch.domain} · every ${intervalText(watch.intervalSeconds)}`);
  if (watch.nextRefreshAt) facts.append(' · next refresh ', timeElement(watch.nextRefreshAt));
  if (watch.webhook) facts.append(' · webhook');

  const conditions = document.createElement('p');
  conditions.className = 'watch-meta';
  conditions.textContent = watch.conditions.length ? `Events when: ${watch.conditions.map(conditionText).join('; ')}` : 'History only (no conditions)';

  const actions = document.createElement('div');
  actions.className = 'watch-actions';
  const detail = button('History and events', 'small show-detail', () => openWatchDetail(watch).catch(complain), `History and events of ${name}`);
  const paused = watch.status === 'PAUSED';
  const toggle = button(paused ? 'Resume' : 'Pause', 'small secondary', () => setStatus(watch, paused ? 'ACTIVE' : 'PAUSED', toggle), `${paused ? 'Resume' : 'Pause'} ${name}`);
  const remove = button('Delete', 'small danger', () => deleteWatch(watch, name, remove), `Delete ${name}`);
  actions.append(detail, toggle, remove);

  item.append(head, facts, conditions, actions);
  return item;
}

async function setStatus(watch, status, control) {
  control.disabled = true;
  try {
    await api('PATCH', `watches/${encodeURIComponent(watch.id)}`, { status });
    say(status === 'PAUSED' ? `Watch “${watch.label ?? watch.asin}” paused.` : `Watch “${watch.label ?? watch.asin}” resumed.`);
    await loadWatches();
    document.querySelector(`[data-watch-id="${watch.id}"] .watch-actions .secondary`)?.focus();
  } catch (error) {
    control.disabled = false;
    complain(error);
  }
}

async function deleteWatch(watch, name, opener) {
  const text = `“${name}” (${watch.asin}) stops refreshing, and its events and webhook deliveries are deleted. The product’s shared price history stays.`;
  if (!(await confirmWith({ question: 'Delete this watch?', text, confirm: 'Delete watch' }, opener))) return;
  try {
    await api('DELETE', `watches/${encodeURIComponent(watch.id)}`);
    closeWatchDetail();
    say(`Watch “${name}” deleted.`);
    await loadWatches();
    $('watches-title').focus();
  } catch (error) {
    complain(error);
  }
}

// ---------------------------------------------------------------- create, and the one-time secret

const secret = oneTimeSecret({ panel: 'new-secret', value: 'new-secret-value', copy: 'copy-secret', dismiss: 'dismiss-secret', status: 'copy-secret-status' }, 'watch-product');

$('watch-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    const { retailWatch } = await api('POST', 'watches', watchBody(form));
    clearWatchFormErrors(form);
    form.reset();
    for (const input of form.querySelectorAll('[data-condition-value]')) input.disabled = true;
    showLookup('asin');
    say(`Watching ${retailWatch.asin} on ${retailWatch.domain}; the first snapshot is being taken.`);
    if (retailWatch.webhook?.secret) secret.show(retailWatch.webhook.secret);
    await loadWatches();
  } catch (error) {
    if (error.status === 401 || error.status === 403) complain(error);
    showWatchFormErrors(form, error);
  } finally {
    submit.disabled = false;
  }
});

for (const radio of document.querySelectorAll('input[name="lookup"]')) radio.addEventListener('change', () => showLookup(radio.value));

$('watches-more').addEventListener('click', () => loadWatches(true).catch(complain));
