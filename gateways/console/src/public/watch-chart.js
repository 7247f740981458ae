// The price / stock chart of a watch's history, drawn by uPlot (served from this origin at
// vendor/uplot.js, loaded on first use). Price and list price are stepped lines (a price holds until
// the next snapshot), gaps where the product had none; stock is a shaded step on its own axis.
// Points marked SUSPECT (a field unknown or unconfirmed: docs/watches.md, Quality marks) are shaded
// amber across the chart's height, and their unconfirmed values are left out of the lines and the
// summary: the chart never draws a value the service does not vouch for as if it did.
// The canvas is an image to assistive technology: its summary is the container's label, and the
// same points are in the table below it.

import { priceText } from './watch-text.js';

let uPlotModule;
/** uPlot, loaded once on first use (the usage chart shares it: usage-chart.js). */
export const loadUPlot = () => (uPlotModule ??= import('./vendor/uplot.js').then((module) => module.default));

const COLOURS = {
  price: '#1f5fbf', listPrice: '#5b6475', stock: '#1e7a3c', stockFill: 'rgba(30, 122, 60, 0.12)', suspect: 'rgba(191, 110, 0, 0.6)', suspectFill: 'rgba(230, 150, 0, 0.18)',
};

export const isSuspect = (point) => point.quality === 'SUSPECT';

/** A field's value when the point vouches for it (not unknown, not unconfirmed), else null. */
const vouched = (point, field, value) => (point.suspectFields?.includes(field) ? null : value ?? null);

export function historySeries(points) {
  return {
    times: points.map((point) => Date.parse(point.at) / 1000),
    prices: points.map((point) => vouched(point, 'price', point.price?.value)),
    listPrices: points.map((point) => vouched(point, 'listPrice', point.listPrice?.value)),
    stock: points.map((point) => vouched(point, 'isInStock', point.isInStock === true ? 1 : point.isInStock === false ? 0 : null)),
    // 1 over a suspect point's step, null elsewhere: a shaded band from the point before to it.
    suspect: points.map((point) => (isSuspect(point) ? 1 : null)),
    currency: points.find((point) => point.price)?.price.currency ?? points.find((point) => point.listPrice)?.listPrice.currency,
  };
}

export function historySummary(points) {
  const series = historySeries(points);
  const prices = series.prices.filter((value) => value !== null);
  if (points.length === 0) return 'No history yet: the first snapshot is taken when the watch is created, then at every refresh.';
  const money = (value) => priceText({ value, currency: series.currency });
  const outOfStock = series.stock.filter((value) => value === 0).length;
  const range = prices.length ? `price from ${money(Math.min(...prices))} to ${money(Math.max(...prices))}, latest ${money(prices.at(-1))}` : 'no price seen';
  const suspect = points.filter(isSuspect).length;
  const marked = suspect ? `; ${suspect} marked suspect (a value unknown or unconfirmed, shaded; no alert fired from it)` : '';
  return `${points.length} snapshots: ${range}; out of stock in ${outOfStock} of them${marked}.`;
}

/**
 * An axis as wide as its longest label ("$2,500.00" with its symbol, "1.249,99 €"), measured in the
 * axis font as uPlot's own axis-autosize example does: a fixed width clips long currencies.
 */
function labelWidth(u, values, axisIndex, cycle) {
  const axis = u.axes[axisIndex];
  if (cycle > 1) return axis._size;
  const longest = (values ?? []).reduce((widest, value) => (String(value).length > widest.length ? String(value) : widest), '');
  u.ctx.font = axis.font[0];
  return Math.ceil(axis.ticks.size + axis.gap + u.ctx.measureText(longest).width / devicePixelRatio + 4);
}

/** A chart as wide as its container, shorter on a phone. */
export const chartSize = (container) => ({ width: Math.max(240, container.clientWidth), height: container.clientWidth < 480 ? 200 : 260 });

/** Draws `points` into `container`; returns a function that removes the chart. */
export async function drawHistory(container, points) {
  const uPlot = await loadUPlot();
  const series = historySeries(points);
  const money = (value) => (value === null || value === undefined ? '–' : priceText({ value, currency: series.currency }));
  const stepped = uPlot.paths.stepped({ align: 1 });
  const chart = new uPlot(
    {
      ...chartSize(container),
      scales: { x: { time: true }, stock: { auto: false, range: [0, 4] }, suspect: { auto: false, range: [0, 1] } },
      series: [
        {},
        { label: 'Price', scale: 'price', stroke: COLOURS.price, width: 2, paths: stepped, value: (_u, v) => money(v) },
        { label: 'List price', scale: 'price', stroke: COLOURS.listPrice, width: 1, dash: [6, 4], paths: stepped, value: (_u, v) => money(v) },
        {
          label: 'In stock',
          scale: 'stock',
          stroke: COLOURS.stock,
          fill: COLOURS.stockFill,
          width: 1,
          paths: stepped,
          value: (_u, v) => (v === 1 ? 'yes' : v === 0 ? 'no' : '–'),
        },
        {
          label: 'Suspect',
          scale: 'suspect',
          stroke: COLOURS.suspect,
          fill: COLOURS.suspectFill,
          width: 0,
          paths: stepped,
          value: (_u, v) => (v === 1 ? 'yes' : '–'),
        },
      ],
      axes: [
        // Time labels ("11/27 18:00") need about 80 px each: fewer ticks than uPlot's default 50 px apart, so the first ones do not overlap.
        { space: 90 },
        { scale: 'price', size: labelWidth, values: (_u, ticks) => ticks.map(money) },
        { scale: 'stock', side: 1, size: 40, grid: { show: false }, splits: () => [0, 1], values: (_u, ticks) => ticks.map((t) => (t === 1 ? 'In' : 'Out')) },
      ],
    },
    [series.times, series.prices, series.listPrices, series.stock, series.suspect],
    container,
  );
  container.dataset.points = String(points.length);
  container.dataset.suspectPoints = String(points.filter(isSuspect).length);
  const resize = new ResizeObserver(() => chart.setSize(chartSize(container)));
  resize.observe(container);
  return () => {
    resize.disconnect();
    chart.destroy();
    delete container.dataset.points;
    delete container.dataset.suspectPoints;
  };
}
