// The console page: plain DOM, no framework, no build. This module runs the session (sign in, sign
// up, sign out), the account view (balance, API keys, usage and its chart: usage-chart.js) and switches to the Watches view
// (watches.js), the Jobs view (jobs.js) and, for operators, the Operator view (operator.js) by the URL's hash.

import { $, api, button, complain, confirmWith, copyFrom, formatDate, labelColumns, say, setCsrfToken, textCell, timeCell, whenSessionProblem } from './page.js';
import { hideJobs, showJobs } from './jobs.js';
import { oneTimeSecret } from './one-time-secret.js';
import { hideOperator, showOperator } from './operator.js';
import { showUsageChart } from './usage-chart.js';
import { hideWatches, showWatches } from './watches.js';

let watchesOffered = false;
let jobsOffered = false;
let usageHistoryOffered = false;
let operatorOffered = false;

// ---------------------------------------------------------------- session and views

async function loadSession() {
  const session = await api('GET', 'session');
  setCsrfToken(session.csrfToken);
  $('loading').hidden = true;
  const signedIn = Boolean(session.user);
  watchesOffered = signedIn && session.watches === true;
  jobsOffered = signedIn && session.jobs === true;
  usageHistoryOffered = signedIn && session.usageHistory === true;
  // The role as the server holds it now: a revoked operator loses the view at the next session read.
  operatorOffered = signedIn && session.user.operator === true;
  $('signed-in').hidden = !signedIn;
  $('signed-out').hidden = signedIn;
  $('whoami').hidden = !signedIn;
  $('views').hidden = !watchesOffered && !jobsOffered && !operatorOffered;
  $('watches-link').hidden = !watchesOffered;
  $('jobs-link').hidden = !jobsOffered;
  $('operator-link').hidden = !operatorOffered;
  if (!operatorOffered) hideOperator();
  if (signedIn) {
    $('user-email').textContent = session.user.email;
    await showView();
  } else {
    hideWatches();
    hideJobs();
    const closed = session.signupMode === 'closed';
    $('signup-form').hidden = closed;
    $('signup-closed').hidden = !closed;
    $('invite-field').hidden = session.signupMode !== 'invite';
  }
}
whenSessionProblem(loadSession);

/** `#watches`, `#jobs` and `#operator` show their views (when offered to this user); anything else the account. */
async function showView() {
  const offered = { '#watches': watchesOffered, '#jobs': jobsOffered, '#operator': operatorOffered };
  const view = offered[location.hash] ? location.hash : '#account';
  $('account-view').hidden = view !== '#account';
  $('watches-view').hidden = view !== '#watches';
  $('jobs-view').hidden = view !== '#jobs';
  $('operator-view').hidden = view !== '#operator';
  for (const link of $('views').querySelectorAll('a')) {
    if (link.hash === view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (view !== '#jobs') hideJobs();
  if (view === '#watches') await showWatches();
  else if (view === '#jobs') await showJobs();
  else if (view === '#operator') await showOperator();
  else await Promise.all([loadKeys(), loadAccount()]);
}

window.addEventListener('hashchange', () => {
  if (!$('signed-in').hidden) showView().catch(complain);
});

async function loadAccount() {
  const account = await api('GET', 'account');
  $('balance').textContent = account.balance.toLocaleString();
  $('plan').textContent = account.plan;
  showNoUnits(account);
  // Each row is a call as it was made (usage-labels.ts on the server): its public name and interface.
  const rows = [...account.usage].sort((a, b) => b.date.localeCompare(a.date) || a.call.localeCompare(b.call) || a.via.localeCompare(b.via)).slice(0, 30);
  $('usage-body').replaceChildren(
    ...rows.map((day) => {
      const row = document.createElement('tr');
      const call = textCell('', 'call');
      const code = document.createElement('code');
      code.textContent = day.call;
      call.append(code);
      row.append(textCell(day.date), call, textCell(day.via), textCell(day.calls.toLocaleString(), 'number'));
      return row;
    }),
  );
  labelColumns($('usage-table'));
  $('usage-table').hidden = rows.length === 0;
  $('usage-empty').hidden = rows.length > 0;
}

/** At 0 units: what stops, how to get units (the admin CLI line with this account's id), what happens to watches and jobs. */
function showNoUnits(account) {
  const empty = account.balance <= 0;
  $('no-units').hidden = !empty;
  if (!empty) return;
  // Below zero is a debt (a late debit after a restore, docs/metering.md): shown as it is, not as 0.
  $('debt-note').hidden = account.balance >= 0;
  $('debt-units').textContent = (-account.balance).toLocaleString();
  $('no-units-account').textContent = account.accountId;
  $('no-units-command').value = `npm run admin -- account grant ${account.accountId} 1000`;
  $('copy-command-status').textContent = '';
}

$('copy-command').addEventListener('click', async () => {
  $('copy-command-status').textContent = await copyFrom($('no-units-command'));
});

async function loadKeys() {
  const { keys } = await api('GET', 'keys');
  $('keys-body').replaceChildren(...keys.map(keyRow));
  // The chart reads the ledger's record: a service without one (a memory ledger) has no history to draw.
  $('usage-chart-section').hidden = !usageHistoryOffered;
  if (usageHistoryOffered) await showUsageChart(keys);
  labelColumns($('keys-table'));
  $('keys-table').hidden = keys.length === 0;
  $('keys-empty').hidden = keys.length > 0;
}

function keyRow(key) {
  const row = document.createElement('tr');
  row.dataset.keyId = key.keyId;
  const name = key.label ?? 'Unlabelled key';
  const prefix = textCell('', 'key-prefix');
  const code = document.createElement('code');
  code.textContent = `${key.prefix}…`;
  prefix.append(code);
  const revoked = Boolean(key.revokedAt);
  row.append(
    textCell(name, key.label ? '' : 'muted'),
    prefix,
    timeCell(key.createdAt, ''),
    timeCell(key.lastUsedAt, 'Never'),
    textCell(revoked ? `Revoked ${formatDate(key.revokedAt)}` : 'Active', revoked ? 'status revoked' : 'status active'),
  );
  const actions = document.createElement('td');
  if (!revoked) {
    const revoke = button('Revoke', 'danger small', () => confirmRevoke(key, name, revoke), `Revoke ${name} (${key.prefix}…)`);
    actions.append(revoke);
  }
  row.append(actions);
  return row;
}

// ---------------------------------------------------------------- forms

function showFieldErrors(form, error) {
  for (const element of form.querySelectorAll('.field-error')) element.textContent = '';
  for (const input of form.querySelectorAll('input')) input.removeAttribute('aria-invalid');
  let general = '';
  for (const problem of error.errors ?? []) {
    const field = problem.path?.[0];
    const slot = field && $(`${form.id.replace('-form', '')}-${field}-error`);
    if (slot) {
      slot.textContent = problem.message;
      form.querySelector(`[name="${field}"]`)?.setAttribute('aria-invalid', 'true');
    } else general = general || problem.message;
  }
  if (error.status === 429 && error.retryAfter) general = `${error.message} (in about ${Math.ceil(Number(error.retryAfter) / 60)} min)`;
  const generalSlot = $(`${form.id.replace('-form', '')}-error`);
  generalSlot.textContent = general || (error.errors?.length ? '' : error.message);
  (form.querySelector('[aria-invalid="true"]') ?? generalSlot).focus?.();
}

function bindForm(form, submit) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submitButton = form.querySelector('button[type="submit"]');
    submitButton.disabled = true;
    try {
      await submit(Object.fromEntries(new FormData(form)));
      for (const element of form.querySelectorAll('.field-error')) element.textContent = '';
    } catch (error) {
      if (error.status === 403 && /CSRF/.test(error.message)) await loadSession().catch(() => {});
      showFieldErrors(form, error);
    } finally {
      submitButton.disabled = false;
    }
  });
}

bindForm($('signin-form'), async ({ email, password }) => {
  await api('POST', 'signin', { email, password });
  $('signin-form').reset();
  await loadSession();
  say('Signed in.');
  $('main').focus();
});

bindForm($('signup-form'), async ({ email, password, inviteCode }) => {
  await api('POST', 'signup', { email, password, ...(inviteCode ? { inviteCode } : {}) });
  $('signup-form').reset();
  await loadSession();
  say('Account created with 100 free units. Create an API key to start.');
  $('main').focus();
});

$('create-key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const label = $('key-label').value.trim();
  try {
    const created = await api('POST', 'keys', label ? { label } : {});
    $('create-key-form').reset();
    showNewKey(created);
    await loadKeys();
  } catch (error) {
    complain(error);
  }
});

$('signout').addEventListener('click', async () => {
  try {
    await api('POST', 'signout');
  } finally {
    newKey.hide();
    await loadSession().catch(complain);
    say('Signed out.');
  }
});

// ---------------------------------------------------------------- the one-time key

const newKey = oneTimeSecret({ panel: 'new-key', value: 'new-key-value', copy: 'copy-key', dismiss: 'dismiss-key', status: 'copy-status' }, 'key-label');

function showNewKey(created) {
  $('new-key-label').textContent = created.info.label ? ` (${created.info.label})` : '';
  newKey.show(created.key);
}

// ---------------------------------------------------------------- revoke with confirmation

async function confirmRevoke(key, name, opener) {
  const text = `“${name}” (${key.prefix}…) will stop working immediately for every client that uses it. This cannot be undone.`;
  if (!(await confirmWith({ question: 'Revoke this key?', text, confirm: 'Revoke key' }, opener))) return;
  try {
    await api('DELETE', `keys/${encodeURIComponent(key.keyId)}`);
    say(`Key “${name}” revoked.`);
    await loadKeys();
    $('keys-title').focus?.();
  } catch (error) {
    complain(error);
  }
}

loadSession().catch((error) => {
  $('loading').hidden = true;
  complain(error);
});
