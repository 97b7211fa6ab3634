// A line chart (Observable Plot, SVG) with a table view of the same data underneath.
// Plot writes its default styles into a <style> element inside the SVG, which the page's
// Content-Security-Policy (style-src 'self') would refuse and report; the chart is built detached,
// that element is removed before it joins the page, and styles.css carries the equivalent rules.
import { plot, line, dot, ruleY } from '../vendor/vendor.js';
import { h } from './dom.js';
import { formatNumber } from './format.js';

const kClassName = 'dp-plot';

// Tick labels as people write privacy parameters: 0.2, 70, 1e-6 (Plot's log axes would say 200m, 1µ).
const tickText = (value) => (value === 0 || (Math.abs(value) >= 1e-3 && Math.abs(value) < 1e5)
  ? String(Number(value.toPrecision(3))) : value.toExponential(0).replace('e+', 'e'));

/**
 * points: [{ series, x, y }] (y finite). options: { title, xLabel, yLabel, xLog, yLog,
 * description, width }. Returns a <figure> with the chart and a <details> table view.
 */
export function chartFigure(points, { title, xLabel, yLabel, xLog = false, yLog = false, description, width = 640 }) {
  const series = [...new Set(points.map((point) => point.series))];
  const figure = h('figure', { class: 'chart' }, h('figcaption', {}, title));
  if (points.length === 0) {
    figure.append(h('p', { class: 'note' }, 'Nothing to plot: fix the marked fields above.'));
    return figure;
  }
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
      line(points, { x: 'x', y: 'y', stroke: 'series', strokeWidth: 2 }),
      dot(points, { x: 'x', y: 'y', fill: 'series', r: 2.5, title: (p) => `${p.series}\n${xLabel} = ${p.x}\n${yLabel} = ${p.y}` }),
    ],
  });
  for (const style of chart.querySelectorAll('style')) style.remove();
  figure.append(h('div', { class: 'chart-body' }, chart));
  figure.append(dataTable(points, series, xLabel, yLabel));
  return figure;
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
