// The Jobs view: start a bulk job from a list of identifiers, and the account's jobs with a progress
// bar each (refreshed every two seconds while one runs), status, units charged, the results as
// NDJSON and CSV (downloaded from the console's own streamed endpoint, with the session), and cancel.

import { $, api, button, complain, confirmWith, say, showListPage, timeElement } from './page.js';

const REFRESH_MS = 2_000;
let optionsLoaded = false;
let nextCursor = null;
let refreshTimer = null;

const ENDED = new Set(['DONE', 'CANCELLED', 'FAILED']);
const STATUS_TEXT = { QUEUED: 'Queued', RUNNING: 'Running', DONE: 'Done', CANCELLED: 'Cancelled', FAILED: 'Stopped' };

function fillOptions({ operations, domains, identifiers }) {
  const option = (value, text = value) => Object.assign(document.createElement('option'), { value, textContent: text });
  $('job-operation').replaceChildren(...operations.map((name) => option(name)));
  $('job-domain').replaceChildren(...domains.map((name) => option(name)));
  $('job-identifier').replaceChildren(...identifiers.map((name) => option(name, name === 'url' ? 'Product URLs' : `${name.toUpperCase()}s`)));
}

export async function showJobs() {
  if (!optionsLoaded) {
    fillOptions(await api('GET', 'jobs/options'));
    optionsLoaded = true;
  }
  await loadJobs();
}

/** Signed out or another view: nothing refreshes, nothing of the account stays. */
export function hideJobs() {
  clearTimeout(refreshTimer);
  refreshTimer = null;
  $('job-list').replaceChildren();
  $('job-form').reset();
}

async function loadJobs(more = false) {
  clearTimeout(refreshTimer);
  const query = new URLSearchParams({ limit: '20', ...(more && nextCursor ? { cursor: nextCursor } : {}) });
  const { retailJobs } = await api('GET', `jobs?${query}`);
  const items = retailJobs.jobs.map(jobItem);
  nextCursor = retailJobs.nextCursor;
  showListPage({ list: 'job-list', more: 'jobs-more', empty: 'jobs-empty' }, items, more, nextCursor);
  // Progress moves while a job runs: look again shortly (only the first page, only while this view shows).
  if (!more && retailJobs.jobs.some((job) => !job.expiresAt) && !$('jobs-view').hidden) {
    refreshTimer = setTimeout(() => loadJobs().catch(complain), REFRESH_MS);
  }
}

function downloadLink(job, format, text) {
  const link = document.createElement('a');
  link.href = `api/jobs/${encodeURIComponent(job.id)}/results?format=${format}`;
  link.download = `job-${job.id}.${format}`;
  link.className = 'button';
  link.textContent = text;
  link.setAttribute('aria-label', `${text} of ${job.label ?? job.id}`);
  return link;
}

function jobItem(job) {
  const item = document.createElement('li');
  item.className = 'watch job';
  item.dataset.jobId = job.id;
  const name = job.label ?? `Job ${job.id.slice(0, 8)}`;

  const head = document.createElement('div');
  head.className = 'watch-head';
  const title = document.createElement('h3');
  title.textContent = name;
  const status = document.createElement('span');
  status.className = `status ${ENDED.has(job.status) ? 'paused' : 'active'}`;
  status.textContent = STATUS_TEXT[job.status] ?? job.status;
  head.append(title, status);

  const progress = document.createElement('progress');
  progress.className = 'job-progress';
  progress.max = Math.max(job.total, 1);
  progress.value = job.done;
  progress.setAttribute('aria-label', `${name}: ${job.done} of ${job.total} items done`);

  const facts = document.createElement('p');
  facts.className = 'watch-meta';
  const succeeded = job.done - job.failed;
  facts.append(`${job.done.toLocaleString()} of ${job.total.toLocaleString()} done · ${succeeded.toLocaleString()} succeeded · ${job.failed.toLocaleString()} failed · ${job.unitsCharged.toLocaleString()} units charged · started `, timeElement(job.createdAt));
  if (job.stopReason) facts.append(` · stopped: ${job.stopReason}`);

  const actions = document.createElement('div');
  actions.className = 'watch-actions';
  actions.append(downloadLink(job, 'ndjson', 'Results (NDJSON)'), downloadLink(job, 'csv', 'Results (CSV)'));
  if (!ENDED.has(job.status)) {
    const cancel = button('Cancel', 'small danger', () => cancelJob(job, name, cancel), `Cancel ${name}`);
    actions.append(cancel);
  }
  item.append(head, progress, facts, actions);
  return item;
}

async function cancelJob(job, name, opener) {
  const text = `Items of “${name}” not started yet never run and cost nothing; the results so far stay.`;
  if (!(await confirmWith({ question: 'Cancel this job?', text, confirm: 'Cancel job', keep: 'Keep running' }, opener))) return;
  try {
    await api('DELETE', `jobs/${encodeURIComponent(job.id)}`);
    say(`Job “${name}” cancelled.`);
    await loadJobs();
    $('jobs-title').focus();
  } catch (error) {
    complain(error);
  }
}

function showFormErrors(form, error) {
  for (const element of form.querySelectorAll('.field-error')) element.textContent = '';
  const problems = error.errors?.length ? error.errors : [{ message: error.message }];
  for (const problem of problems) {
    const field = problem.path?.[0];
    const target = (field && $(`job-${field}-error`)) || $('job-error');
    target.textContent = problem.message;
  }
  $('job-error').focus();
}

$('job-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    const body = Object.fromEntries(new FormData(form));
    const { retailJob } = await api('POST', 'jobs', body);
    for (const element of form.querySelectorAll('.field-error')) element.textContent = '';
    $('job-identifiers').value = '';
    $('job-label').value = '';
    say(`Job of ${retailJob.total.toLocaleString()} items started.`);
    await loadJobs();
  } catch (error) {
    if (error.status === 401 || error.status === 403) complain(error);
    showFormErrors(form, error);
  } finally {
    submit.disabled = false;
  }
});

$('jobs-more').addEventListener('click', () => loadJobs(true).catch(complain));
