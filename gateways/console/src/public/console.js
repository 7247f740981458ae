// The console page: plain DOM, no framework, no build. Every value from the server is written with
// textContent (never as HTML). The CSRF token from GET api/session goes in a header on every
// state-changing request.

const $ = (id) => document.getElementById(id);
let csrfToken = '';

async function api(method, path, body) {
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

function say(message) {
  $('problem').textContent = '';
  $('notice').textContent = message;
}

function complain(error) {
  $('notice').textContent = '';
  $('problem').textContent = error.message;
  // An ended session (expiry, sign-out elsewhere) or a stale CSRF token: show the current state.
  if (error.status === 401 || error.status === 403) {
    loadSession()
      .then(() => {
        if (error.status === 401) $('problem').textContent = 'Your session has ended. Please sign in again.';
      })
      .catch(() => {});
  }
}

const formatDate = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');

function timeCell(iso, emptyText) {
  const cell = document.createElement('td');
  if (!iso) {
    cell.textContent = emptyText;
    cell.className = 'muted';
    return cell;
  }
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = formatDate(iso);
  cell.append(time);
  return cell;
}

function textCell(text, className) {
  const cell = document.createElement('td');
  cell.textContent = text;
  if (className) cell.className = className;
  return cell;
}

// ---------------------------------------------------------------- session and views

async function loadSession() {
  const session = await api('GET', 'session');
  csrfToken = session.csrfToken;
  $('loading').hidden = true;
  const signedIn = Boolean(session.user);
  $('signed-in').hidden = !signedIn;
  $('signed-out').hidden = signedIn;
  $('whoami').hidden = !signedIn;
  if (signedIn) {
    $('user-email').textContent = session.user.email;
    await Promise.all([loadKeys(), loadAccount()]);
  } else {
    const closed = session.signupMode === 'closed';
    $('signup-form').hidden = closed;
    $('signup-closed').hidden = !closed;
    $('invite-field').hidden = session.signupMode !== 'invite';
  }
}

async function loadAccount() {
  const account = await api('GET', 'account');
  $('balance').textContent = account.balance.toLocaleString();
  $('plan').textContent = account.plan;
  const rows = [...account.usage].sort((a, b) => b.date.localeCompare(a.date) || a.operation.localeCompare(b.operation)).slice(0, 30);
  $('usage-body').replaceChildren(
    ...rows.map((day) => {
      const row = document.createElement('tr');
      row.append(textCell(day.date), textCell(day.operation), textCell(day.calls.toLocaleString(), 'number'));
      return row;
    }),
  );
  $('usage-table').hidden = rows.length === 0;
  $('usage-empty').hidden = rows.length > 0;
}

async function loadKeys() {
  const { keys } = await api('GET', 'keys');
  $('keys-body').replaceChildren(...keys.map(keyRow));
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
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'danger small';
    button.textContent = 'Revoke';
    button.setAttribute('aria-label', `Revoke ${name} (${key.prefix}…)`);
    button.addEventListener('click', () => confirmRevoke(key, name, button));
    actions.append(button);
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
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    try {
      await submit(Object.fromEntries(new FormData(form)));
      for (const element of form.querySelectorAll('.field-error')) element.textContent = '';
    } catch (error) {
      if (error.status === 403 && /CSRF/.test(error.message)) await loadSession().catch(() => {});
      showFieldErrors(form, error);
    } finally {
      button.disabled = false;
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
    hideNewKey();
    await loadSession().catch(complain);
    say('Signed out.');
  }
});

// ---------------------------------------------------------------- the one-time key

function showNewKey(created) {
  $('new-key-value').value = created.key;
  $('new-key-label').textContent = created.info.label ? ` (${created.info.label})` : '';
  $('copy-status').textContent = '';
  $('new-key').hidden = false;
  $('new-key-value').focus();
  $('new-key-value').select();
}

function hideNewKey() {
  // Drop the value from the page: after this it exists only where the user pasted it.
  $('new-key-value').value = '';
  $('new-key').hidden = true;
}

$('copy-key').addEventListener('click', async () => {
  const value = $('new-key-value').value;
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(value);
      copied = true;
    }
  } catch {
    copied = false;
  }
  if (!copied) {
    $('new-key-value').select();
    copied = document.execCommand?.('copy') ?? false;
  }
  $('copy-status').textContent = copied ? 'Copied to the clipboard.' : 'Copy failed: the key is selected, press Ctrl+C (or ⌘C).';
});

$('dismiss-key').addEventListener('click', () => {
  hideNewKey();
  $('key-label').focus();
});

// ---------------------------------------------------------------- revoke with confirmation

function confirmRevoke(key, name, opener) {
  const dialog = $('revoke-dialog');
  $('revoke-text').textContent = `“${name}” (${key.prefix}…) will stop working immediately for every client that uses it. This cannot be undone.`;
  dialog.returnValue = '';
  dialog.addEventListener(
    'close',
    async () => {
      if (dialog.returnValue !== 'revoke') return opener.focus();
      try {
        await api('DELETE', `keys/${encodeURIComponent(key.keyId)}`);
        say(`Key “${name}” revoked.`);
        await loadKeys();
        $('keys-title').focus?.();
      } catch (error) {
        complain(error);
      }
    },
    { once: true },
  );
  dialog.showModal();
}

loadSession().catch((error) => {
  $('loading').hidden = true;
  complain(error);
});
