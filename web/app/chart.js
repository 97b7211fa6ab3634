// A line chart (Observable Plot, SVG) with a table view of the same data underneath.
// Plot writes its default styles into a <style> element inside the SVG, which the page's
// Content-Security-Policy (style-src 'self') would refuse and report; the chart is built detached,
// that element is removed before it joins the page, and styles.css carries the equivalent rules.
import { plot, line, dot, ruleY } from '../vendor/vendor.js';
import { h } from './dom.js';
import { formatNumber, numberText } from './format.js';

const kClassName = 'dp-plot';

// Tick labels as people write privacy parameters: 0.2, 70, 1e-6 (Plot's log axes would say 200m, 1µ).
const tickText = (value) => (value === 0 || (Math.abs(value) >= 1e-3 && Math.abs(value) < 1e5)
  ? String(Number(value.toPrecision(3))) : value.toExponential(0).replace('e+', 'e'));

/**
 * points: [{ series, x, y }] (y finite). options: { title, xLabel, yLabel, xLog, yLog,
 * description, width, dashed, undotted, emptyText, longTable }: series named in `dashed` are drawn
 * dashed, those in `undotted` without dots (dense curves). Returns a <figure> with the chart and a
 * <details> table view: one row per x and a column per series, or with `longTable` (series whose
 * x values differ) one row per point, each value rounded as its `xRole`/`yRole` says ('given':
 * shown as sent, 'upper': rounded up, 'lower': rounded down).
 */
export function chartFigure(points, { title, xLabel, yLabel, xLog = false, yLog = false, description, width = 640,
  dashed = [], undotted = [], emptyText = 'Nothing to plot: fix the marked fields above.', longTable = false }) {
  const series = [...new Set(points.map((point) => point.series))];
  const figure = h('figure', { class: 'chart' }, h('figcaption', {}, title));
  if (points.length === 0) {
    figure.append(h('p', { class: 'note' }, emptyText));
    return figure;
  }
  const isDashed = (point) => dashed.includes(point.series);
  const lineOptions = { x: 'x', y: 'y', stroke: 'series', strokeWidth: 2 };
  const chart = plot({
    className: kClassName,
    width,
    height: 320,
    marginLeft: 60,
    ariaLabel: title,
    ariaDescription: description,
    x: { label: xLabel, type: xLog ? 'log' : 'linear', grid: true, tickFormat: tickText },
    y: { label: yLabel, type: yLog ? 'log' : 'linear', grid: true, nice: true, tickFormat: tickText, ticks: yLog ? 6 : undefined },
    color: { legend: true, domain: series, scheme: 'observable10' },
    marks: [
      yLog ? null : ruleY([0]),
      line(points.filter((point) => !isDashed(point)), lineOptions),
      dashed.length > 0 ? line(points.filter(isDashed), { ...lineOptions, strokeDasharray: '6 4' }) : null,
      dot(points.filter((point) => !undotted.includes(point.series)), { x: 'x', y: 'y', fill: 'series', r: 2.5,
        title: (p) => `${p.series}\n${xLabel} = ${p.x}\n${yLabel} = ${p.y}` }),
    ],
  });
  for (const style of chart.querySelectorAll('style')) style.remove();
  figure.append(h('div', { class: 'chart-body' }, chart));
  figure.append(longTable ? pointTable(points, xLabel, yLabel) : dataTable(points, series, xLabel, yLabel));
  return figure;
}

const roleText = (value, role) => (role === 'given' ? numberText(value) : formatNumber(value, role === 'lower' ? 'down' : 'up'));
const roleNote = { given: 'given', upper: 'upper bound', lower: 'lower bound' };

function pointTable(points, xLabel, yLabel) {
  const rows = points.map((point) => h('tr', {}, h('th', { scope: 'row' }, point.series),
    h('td', {}, roleText(point.x, point.xRole), h('span', { class: 'role' }, ` (${roleNote[point.xRole]})`)),
    h('td', {}, roleText(point.y, point.yRole), h('span', { class: 'role' }, ` (${roleNote[point.yRole]})`))));
  return h('details', { class: 'data-table' },
    h('summary', {}, 'Table view of this chart'),
    h('div', { class: 'table-scroll' }, h('table', {},
      h('caption', {}, `${yLabel} and ${xLabel}, point by point (bounds rounded outwards)`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'series'), h('th', { scope: 'col' }, xLabel), h('th', { scope: 'col' }, yLabel))),
      h('tbody', {}, rows))));
}

function dataTable(points, series, xLabel, yLabel) {
  const xs = [...new Set(points.map((point) => point.x))].sort((a, b) => a - b);
  const byKey = new Map(points.map((point) => [`${point.series}\u0000${point.x}`, point.y]));
  const rows = xs.map((x) => h('tr', {}, h('th', { scope: 'row' }, String(x)),
    series.map((name) => {
      const y = byKey.get(`${name}\u0000${x}`);
      return h('td', {}, y === undefined ? '—' : formatNumber(y, 'up'));
    })));
  return h('details', { class: 'data-table' },
    h('summary', {}, 'Table view of this chart'),
    h('div', { class: 'table-scroll' }, h('table', {},
      h('caption', {}, `${yLabel} by ${xLabel} (upper bounds, rounded up)`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, xLabel), series.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, rows))));
}
