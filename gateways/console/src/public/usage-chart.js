// The account's usage chart: calls and units per UTC day over the last 30 days, for every key or
// one, drawn by uPlot as the watch history is (watch-chart.js loads it from this origin). It reads
// the rows `GET /api/account/usage` answers, split by key, through the console's session
// (`api/account/usage?groupBy=key`); the key filter sums them in the page, so changing it asks
// nothing of the server. The canvas is an image to assistive technology: its summary is its label.

import { $, api } from './page.js';
import { chartSize, loadUPlot } from './watch-chart.js';

const DAYS = 30;
const DAY_MS = 86_400_000;
const COLOURS = { calls: '#1f5fbf', callsFill: 'rgba(31, 95, 191, 0.25)', units: '#b4590a' };

let rows = [];
let keyNames = new Map();
let removeChart = () => {};

/** The 30 UTC days ending today, as epoch seconds at midnight. */
export function lastDays(now = Date.now(), count = DAYS) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: count }, (_, i) => (today - (count - 1 - i) * DAY_MS) / 1000);
}

/** Calls and units per day for one key (or every key when `keyId` is empty); a day without calls is 0. */
export function dailySeries(usageRows, days, keyId = '') {
  const calls = new Map(days.map((day) => [day, 0]));
  const units = new Map(days.map((day) => [day, 0]));
  for (const row of usageRows) {
    if (keyId && row.keyId !== keyId) continue;
    const day = Date.parse(row.period) / 1000;
    if (!calls.has(day)) continue;
    calls.set(day, calls.get(day) + row.calls);
    units.set(day, units.get(day) + row.units);
  }
  return { days, calls: days.map((day) => calls.get(day)), units: days.map((day) => units.get(day)) };
}

export function usageSummary(series, who) {
  const calls = series.calls.reduce((a, b) => a + b, 0);
  const units = series.units.reduce((a, b) => a + b, 0);
  if (calls === 0) return `No charged calls in the last ${DAYS} days for ${who}.`;
  const busiest = series.calls.indexOf(Math.max(...series.calls));
  const day = new Date(series.days[busiest] * 1000).toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
  return `Last ${DAYS} days, ${who}: ${calls.toLocaleString()} calls, ${units.toLocaleString()} units; busiest day ${day} (${series.calls[busiest].toLocaleString()} calls).`;
}

async function draw() {
  removeChart();
  const container = $('usage-chart');
  const keyId = $('usage-key').value;
  const series = dailySeries(rows, lastDays(), keyId);
  $('usage-chart-summary').textContent = usageSummary(series, keyId ? `key “${keyNames.get(keyId) ?? keyId}”` : 'all keys');
  const uPlot = await loadUPlot();
  const count = (_u, v) => (v === null || v === undefined ? '–' : v.toLocaleString());
  const chart = new uPlot(
    {
      ...chartSize(container),
      // Half a day either side, so the first and last days' bars are whole; some headroom above the highest.
      scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.15))] } },
      series: [
        { label: 'Day', value: (_u, v) => (v === null ? '–' : new Date(v * 1000).toLocaleDateString(undefined, { timeZone: 'UTC' })) },
        { label: 'Calls', stroke: COLOURS.calls, fill: COLOURS.callsFill, width: 1, paths: uPlot.paths.bars({ size: [0.6, 24] }), value: count },
        { label: 'Units', stroke: COLOURS.units, width: 2, points: { show: true, size: 5 }, value: count },
      ],
      axes: [
        { space: 90, values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' })) },
        { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? t.toLocaleString() : '')) },
      ],
    },
    [series.days, series.calls, series.units],
    container,
  );
  container.dataset.calls = String(series.calls.reduce((a, b) => a + b, 0));
  container.dataset.units = String(series.units.reduce((a, b) => a + b, 0));
  const resize = new ResizeObserver(() => chart.setSize(chartSize(container)));
  resize.observe(container);
  removeChart = () => {
    resize.disconnect();
    chart.destroy();
    delete container.dataset.calls;
    delete container.dataset.units;
  };
}

/** The key filter's options: every key of the account (revoked ones too: their calls stay in the history). */
function fillKeys(keys) {
  const select = $('usage-key');
  const chosen = select.value;
  keyNames = new Map(keys.map((key) => [key.keyId, key.label ?? `${key.prefix}…`]));
  const all = document.createElement('option');
  all.value = '';
  all.textContent = 'All keys';
  select.replaceChildren(all, ...keys.map((key) => {
    const option = document.createElement('option');
    option.value = key.keyId;
    option.textContent = `${keyNames.get(key.keyId)}${key.revokedAt ? ' (revoked)' : ''}`;
    return option;
  }));
  select.value = keyNames.has(chosen) ? chosen : '';
}

/** Loads the last 30 days by key and draws them (the session says whether the service keeps a usage history). */
export async function showUsageChart(keys) {
  fillKeys(keys);
  const from = new Date(lastDays()[0] * 1000).toISOString().slice(0, 10);
  ({ rows } = (await api('GET', `account/usage?from=${from}&groupBy=key`)).retailUsage);
  await draw();
}

$('usage-key').addEventListener('change', () => void draw());
