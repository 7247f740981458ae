// One watch in detail: its product's price / stock history (chart, summary and table), its events
// and its webhook deliveries with Redeliver. Opening it reads the history once (one unit).

import { $, api, button, complain, say, showListPage, textCell, timeCell } from './page.js';
import { drawHistory, historySummary, isSuspect } from './watch-chart.js';
import { changeText, deliveryStatusText, eventText, priceText } from './watch-text.js';

const DAY = 86_400_000;
let current;
let eventsCursor = null;
let removeChart = () => {};

export function closeWatchDetail() {
  removeChart();
  removeChart = () => {};
  current = undefined;
  $('watch-detail').hidden = true;
}

export async function openWatchDetail(watch) {
  closeWatchDetail();
  current = watch;
  $('detail-title').textContent = `${watch.label ?? watch.asin}: history and events`;
  $('detail-product').textContent = `${watch.asin} on ${watch.domain}`;
  $('watch-detail').hidden = false;
  $('detail-title').focus();
  await Promise.all([loadHistory(), loadEvents(), loadDeliveries()]);
}

async function loadHistory() {
  const watch = current;
  const days = Number($('history-period').value);
  const query = new URLSearchParams({ asin: watch.asin, domain: watch.domain, from: new Date(Date.now() - days * DAY).toISOString(), maxPoints: '500' });
  $('chart-summary').textContent = 'Loading the history…';
  const { retailProductHistory } = await api('GET', `product/history?${query}`);
  if (current !== watch) return;
  const points = retailProductHistory.points;
  removeChart();
  removeChart = () => {};
  $('chart-summary').textContent = historySummary(points);
  $('history-body').replaceChildren(...points.map(historyRow));
  $('history-table-wrap').hidden = points.length === 0;
  if (points.length > 0) removeChart = await drawHistory($('chart'), points);
}

/** What a point's mark says in the table: the fields unknown or unconfirmed, by name. */
function qualityText(point) {
  if (point.quality === 'REVISED') return 'Revised';
  if (point.quality !== 'SUSPECT') return 'OK';
  const named = (label, fields) => (fields?.length ? `${label}: ${fields.join(', ')}` : '');
  return ['Suspect', named('unknown', point.unknownFields), named('unconfirmed', point.suspectFields)].filter(Boolean).join(' · ');
}

function historyRow(point) {
  const row = document.createElement('tr');
  const stock = point.isInStock === true ? 'In stock' : point.isInStock === false ? 'Out of stock' : '–';
  if (isSuspect(point)) row.classList.add('suspect');
  row.append(timeCell(point.at, ''), textCell(priceText(point.price), 'number'), textCell(stock), textCell(point.buyboxSellerId ?? '–'), textCell(qualityText(point)));
  return row;
}

/** Events come oldest first from a cursor; "Show later events" appends the next page. */
async function loadEvents(more = false) {
  const watch = current;
  const query = new URLSearchParams({ watchId: watch.id, limit: '100', ...(more && eventsCursor ? { cursor: eventsCursor } : {}) });
  const { retailWatchEvents } = await api('GET', `watches/events?${query}`);
  if (current !== watch) return;
  const rows = retailWatchEvents.events.map((event) => {
    const row = document.createElement('tr');
    row.append(timeCell(event.at, ''), textCell(eventText(event.type)), textCell(changeText(event.before, event.after)));
    return row;
  });
  eventsCursor = retailWatchEvents.nextCursor;
  showListPage({ list: 'events-body', frame: 'events-table-wrap', more: 'events-more', empty: 'events-empty' }, rows, more, eventsCursor);
}

async function loadDeliveries() {
  const watch = current;
  $('deliveries-section').hidden = !watch.webhook;
  if (!watch.webhook) return;
  const { retailWebhookDeliveries } = await api('GET', `watches/${encodeURIComponent(watch.id)}/deliveries`);
  if (current !== watch) return;
  const deliveries = retailWebhookDeliveries.deliveries;
  $('deliveries-body').replaceChildren(...deliveries.map(deliveryRow));
  $('deliveries-table-wrap').hidden = deliveries.length === 0;
  $('deliveries-empty').hidden = deliveries.length > 0;
}

function deliveryRow(delivery) {
  const row = document.createElement('tr');
  row.dataset.deliveryId = delivery.id;
  const outcome = delivery.lastResponseStatus ? `HTTP ${delivery.lastResponseStatus}` : delivery.lastError ?? '–';
  row.append(
    timeCell(delivery.createdAt, ''),
    textCell(delivery.eventId),
    textCell(deliveryStatusText(delivery.status), `status ${delivery.status.toLowerCase()}`),
    textCell(String(delivery.attemptCount), 'number'),
    textCell(outcome),
    delivery.deliveredAt ? timeCell(delivery.deliveredAt, '') : timeCell(delivery.nextAttemptAt, '–'),
  );
  const actions = document.createElement('td');
  // A pending delivery is already queued; every other one can be sent again.
  if (delivery.status !== 'PENDING') {
    const redeliver = button('Redeliver', 'small', () => redeliverOne(delivery, redeliver), `Redeliver event ${delivery.eventId}`);
    actions.append(redeliver);
  }
  row.append(actions);
  return row;
}

async function redeliverOne(delivery, control) {
  control.disabled = true;
  try {
    await api('POST', `watches/${encodeURIComponent(current.id)}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`);
    say(`Event ${delivery.eventId} queued for delivery again.`);
    await loadDeliveries();
    $('deliveries-title').focus();
  } catch (error) {
    control.disabled = false;
    complain(error);
  }
}

/** A WEBHOOK_TEST event to the watch's webhook; it shows in the events and, delivered, in the deliveries. */
async function sendTestEvent() {
  const watch = current;
  const control = $('send-test-event');
  control.disabled = true;
  try {
    const { retailWatchEvent } = await api('POST', `watches/${encodeURIComponent(watch.id)}/test-event`);
    say(`Test event ${retailWatchEvent.id} sent to ${watch.webhook.url}.`);
    await Promise.all([loadEvents(), loadDeliveries()]);
  } catch (error) {
    complain(error);
  } finally {
    control.disabled = false;
  }
}

$('send-test-event').addEventListener('click', () => void sendTestEvent());

$('history-period').addEventListener('change', () => {
  if (current) loadHistory().catch(complain);
});

$('events-more').addEventListener('click', () => loadEvents(true).catch(complain));

$('close-detail').addEventListener('click', () => {
  const id = current?.id;
  closeWatchDetail();
  document.querySelector(`[data-watch-id="${id}"] .show-detail`)?.focus();
});
