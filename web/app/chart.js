// A line chart (Observable Plot, SVG) drawn at the width of its container and redrawn when that
// width changes (a ResizeObserver, not CSS scaling, so its text keeps its size), with a legend,
// a table view of the same data and a CSV download.
// Every method keeps one colour, dash pattern and marker in every chart (seriesStyles), so lines
// differ by more than colour; the colours keep a 3:1 contrast on the light and the dark background.
// Plot writes its default styles into a <style> element inside the SVG, which the page's
// Content-Security-Policy (style-src 'self') would refuse and report; that element is removed
// before the chart joins the page, and styles.css carries the equivalent rules.
// Plot (the largest module of the page) is imported on the first chart, not with the page, so that
// the first result does not wait for it: a figure gets its legend, CSV and table at once, and its
// drawing when Plot has arrived.
import { h, scrollRegion } from './dom.js';
import { formatNumber } from './format.js';
import { downloadText } from './download.js';

const kClassName = 'dp-plot';
const kHeight = 320;
const kNarrowHeight = 260;
const kNarrowWidth = 480;
const kMarkersPerCurve = 10;

// Contrast ≥ 3:1 against both #ffffff and the dark surface #1b1f24 (WCAG 2.1, 1.4.11).
const palette = ['#1c7ed6', '#c45a00', '#2b8a3e', '#d6336c', '#8a55d9', '#0b8a8a', '#9c6b00', '#7a7f87'];
const [blue, orange, green, pink, purple, teal, ochre, grey] = palette;

/** The look of each method, by the `key` of its points (or, without one, its series name). */
export const seriesStyles = {
  basic: { color: blue, dash: null, marker: 'circle' },
  parallel: { color: grey, dash: null, marker: 'wye' },
  'advanced-drv': { color: orange, dash: '7 3', marker: 'square' },
  'advanced-kov': { color: green, dash: '2 3', marker: 'triangle' },
  optimal: { color: pink, dash: null, marker: 'diamond' },
  zcdp: { color: purple, dash: '9 3 2 3', marker: 'cross' },
  rdp: { color: ochre, dash: '1 3', marker: 'wye' },
  'pld-upper': { color: teal, dash: null, marker: 'star' },
  'pld-lower': { color: teal, dash: '4 4', marker: null },
  'group-pure': { color: blue, dash: null, marker: 'circle' },
  'group-zcdp': { color: purple, dash: '9 3 2 3', marker: 'cross' },
  'group-gaussian': { color: ochre, dash: '7 3', marker: 'square' },
  'group-approx-delta': { color: orange, dash: null, marker: 'triangle' },
  'attacker-group': { color: pink, dash: null, marker: 'diamond' },
  'attacker-one': { color: blue, dash: '7 3', marker: 'circle' },
  'attacker-guess': { color: grey, dash: '2 3', marker: null },
};
const fallbackMarkers = ['circle', 'square', 'triangle', 'diamond', 'cross', 'star'];

function stylesOf(seriesList) {
  let next = 0;
  return new Map(
    seriesList.map(({ name, key }) => {
      const known = seriesStyles[key ?? name];
      if (known) return [name, known];
      const index = next++;
      return [
        name,
        {
          color: palette[index % palette.length],
          dash: index % 2 ? '6 3' : null,
          marker: fallbackMarkers[index % fallbackMarkers.length],
        },
      ];
    }),
  );
}

// Tick labels as people write privacy parameters: 0.2, 70, 1e-6 (Plot's log axes would say 200m, 1µ).
const tickText = (value) =>
  value === 0 || (Math.abs(value) >= 1e-3 && Math.abs(value) < 1e5)
    ? String(Number(value.toPrecision(3)))
    : value.toExponential(0).replace('e+', 'e');

/** Every n-th point of a dense curve (and its last), so that its markers stay readable. */
function markerPoints(points) {
  const every = Math.max(1, Math.ceil(points.length / kMarkersPerCurve));
  return points.filter((_, i) => i % every === 0 || i === points.length - 1);
}

function svgElement(tag, attributes, ...children) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attributes))
    if (value !== null && value !== undefined) element.setAttribute(key, value);
  element.append(...children);
  return element;
}

// A small drawing of each marker for the legend (the chart's markers are d3 symbols of the same names).
const markerShapes = {
  circle: { tag: 'circle', cx: '14', cy: '6', r: '3.5' },
  square: { tag: 'rect', x: '10.5', y: '2.5', width: '7', height: '7' },
  triangle: { tag: 'polygon', points: '14,1.5 18.5,9.5 9.5,9.5' },
  diamond: { tag: 'polygon', points: '14,1 19,6 14,11 9,6' },
  cross: {
    tag: 'polygon',
    points:
      '12.5,1.5 15.5,1.5 15.5,4.5 18.5,4.5 18.5,7.5 15.5,7.5 15.5,10.5 12.5,10.5 12.5,7.5 9.5,7.5 9.5,4.5 12.5,4.5',
  },
  star: { tag: 'polygon', points: '14,1 15.4,4.6 19,4.8 16.2,7.2 17.1,11 14,9 10.9,11 11.8,7.2 9,4.8 12.6,4.6' },
  wye: { tag: 'polygon', points: '13,1 15,1 15,5 18.5,9 17,10.5 14,7 11,10.5 9.5,9 13,5' },
};

function legendSwatch({ color, dash, marker }) {
  const { tag, ...shape } = marker ? markerShapes[marker] : {};
  return svgElement(
    'svg',
    { width: '28', height: '12', viewBox: '0 0 28 12', 'aria-hidden': 'true', class: 'swatch' },
    svgElement('line', {
      x1: '1',
      y1: '6',
      x2: '27',
      y2: '6',
      stroke: color,
      'stroke-width': '2',
      'stroke-dasharray': dash,
    }),
    ...(tag ? [svgElement(tag, { ...shape, fill: color })] : []),
  );
}

function legendElement(styles) {
  return h(
    'ul',
    { class: 'legend' },
    [...styles].map(([name, style]) => h('li', {}, legendSwatch(style), name)),
  );
}

let plotModule = null;
let plotLoading = null;
/** Resolves to Observable Plot (dist/vendor/vendor.js), fetched once on the first call. */
function loadPlot() {
  plotLoading ??= import('../vendor/vendor.js').then((module) => {
    plotModule = module;
    return module;
  });
  return plotLoading;
}

function drawChart(
  { plot, line, dot, ruleY },
  points,
  seriesNames,
  styles,
  { title, description, xLabel, yLabel, xLog, yLog, width },
) {
  const marks = [yLog ? null : ruleY([0])];
  for (const name of seriesNames) {
    const own = points.filter((point) => point.series === name);
    const { color, dash, marker } = styles.get(name);
    marks.push(line(own, { x: 'x', y: 'y', stroke: color, strokeWidth: 2, strokeDasharray: dash ?? undefined }));
    if (marker) {
      marks.push(
        dot(markerPoints(own), {
          x: 'x',
          y: 'y',
          fill: color,
          symbol: marker,
          r: 3.5,
          title: (p) => `${p.series}\n${xLabel} = ${p.x}\n${yLabel} = ${p.y}`,
        }),
      );
    }
  }
  const chart = plot({
    className: kClassName,
    width,
    height: width < kNarrowWidth ? kNarrowHeight : kHeight,
    marginLeft: 56,
    marginRight: 28,
    ariaLabel: title,
    ariaDescription: description,
    x: {
      label: xLabel,
      type: xLog ? 'log' : 'linear',
      grid: true,
      tickFormat: tickText,
      ticks: Math.max(3, Math.floor(width / 90)),
    },
    y: {
      label: yLabel,
      type: yLog ? 'log' : 'linear',
      grid: true,
      nice: true,
      tickFormat: tickText,
      ticks: yLog ? 6 : undefined,
    },
    marks,
  });
  for (const style of chart.querySelectorAll('style')) style.remove();
  // One image with its title and description for screen readers (the table view has the data);
  // Plot's labels on its inner groups ("line", "rule") are not allowed on elements without a role.
  chart.setAttribute('role', 'img');
  for (const group of chart.querySelectorAll('[aria-label]')) group.removeAttribute('aria-label');
  return chart;
}

// One observer for every chart: a chart redraws when its container's width changes.
const redraws = new WeakMap();
const resizeObserver = new ResizeObserver((entries) => {
  for (const entry of entries) redraws.get(entry.target)?.(Math.floor(entry.contentRect.width));
});

/**
 * CSV of the chart's points: one line per point with its series, x and y at full precision, and
 * what kind of number each is (given, upper bound, lower bound or estimate). The headers name the
 * quantities (`xName`, `yName`), not just their axis symbols.
 */
function csvOf(points, xName, yName) {
  const cell = (text) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [['series', xName, `kind of ${xName}`, yName, `kind of ${yName}`].map(cell).join(',')];
  for (const point of points) {
    lines.push(
      [
        point.series,
        String(point.x),
        roleNote[point.xRole ?? 'given'],
        String(point.y),
        roleNote[point.yRole ?? 'upper'],
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

// The CSV of each figure drawn (chartCsv), for the downloads offered outside it (the export bar).
const csvs = new WeakMap();

/** The CSV download of a figure made by chartFigure: { file (its name, without .csv), text() }, or undefined. */
export const chartCsv = (figure) => csvs.get(figure);

/**
 * points: [{ series, key?, x, y, xRole?, yRole? }] (y finite; `key` picks the series' look in
 * seriesStyles; a role is 'given' (shown as sent), 'upper' (an upper bound, rounded up), 'lower' (a
 * lower bound, rounded down) or 'estimate' (a statistic or numerical estimate, rounded to the
 * nearest); x is 'given' and y 'upper' unless they say otherwise). options: { title, xLabel, yLabel,
 * xName, yName, xLog, yLog, description, emptyText, longTable, file }: the labels go on the axes,
 * the names (the quantity in words, e.g. "failure probability δ") head the CSV and table columns.
 * Returns a <figure> with the legend, the chart, a CSV download (`file`.csv) and a <details> table
 * view: one row per x and a column per series, or with `longTable` (series whose x values differ)
 * one row per point.
 */
export function chartFigure(
  points,
  {
    title,
    xLabel,
    yLabel,
    xName = xLabel,
    yName = yLabel,
    xLog = false,
    yLog = false,
    description,
    emptyText = 'Nothing to plot: fix the marked fields above.',
    longTable = false,
    file = 'dpcalc-chart',
  },
) {
  const seriesList = [
    ...new Map(points.map((point) => [point.series, { name: point.series, key: point.key }])).values(),
  ];
  const seriesNames = seriesList.map((series) => series.name);
  const figure = h('figure', { class: 'chart' }, h('figcaption', {}, title));
  if (points.length === 0) {
    figure.append(h('p', { class: 'note' }, emptyText));
    return figure;
  }
  const styles = stylesOf(seriesList);
  const body = h('div', { class: 'chart-body' });
  const options = { title, description, xLabel, yLabel, xLog, yLog };
  let drawnWidth = 0;
  let wantedWidth = 640;
  const redraw = (width) => {
    if (width < 50) return;
    wantedWidth = width;
    if (!plotModule) {
      if (body.dataset.pending) return;
      body.dataset.pending = 'plot'; // until drawn (the browser tests wait for it)
      loadPlot().then(
        () => redraw(wantedWidth),
        () => {
          delete body.dataset.pending;
          body.replaceChildren(
            h(
              'p',
              { class: 'note' },
              'The chart could not be drawn (its drawing code did not load); the table view below has its data.',
            ),
          );
        },
      );
      return;
    }
    if (Math.abs(width - drawnWidth) < 1) return;
    drawnWidth = width;
    delete body.dataset.pending;
    body.replaceChildren(drawChart(plotModule, points, seriesNames, styles, { ...options, width }));
  };
  redraws.set(body, redraw);
  resizeObserver.observe(body);
  redraw(640);
  const csv = h('button', { type: 'button', class: 'secondary small', dataset: { csv: file } }, 'Download CSV');
  csv.addEventListener('click', () => downloadText(`${file}.csv`, 'text/csv', csvOf(points, xName, yName)));
  csvs.set(figure, { file, text: () => csvOf(points, xName, yName) });
  figure.append(
    legendElement(styles),
    body,
    h('div', { class: 'chart-actions' }, csv),
    longTable ? pointTable(points, title, xName, yName) : dataTable(points, seriesNames, title, xName, yName),
  );
  return figure;
}

const kRounding = { upper: 'up', lower: 'down', estimate: 'nearest' };
// A given value (an input, or a point of a curve the core chose, such as a false-positive rate of
// 1.1547819846894583e-9) is shown to the page's digits, rounded to the nearest.
const roleText = (value, role = 'upper') => formatNumber(value, role === 'given' ? 'nearest' : kRounding[role]);
const roleNote = { given: 'given', upper: 'upper bound', lower: 'lower bound', estimate: 'estimate' };

/** How the table's numbers are rounded, for its caption: "(upper bounds rounded up)" and the like. */
function roundingCaption(points) {
  const roles = new Set(points.flatMap((point) => [point.xRole ?? 'given', point.yRole ?? 'upper']));
  const said = [
    roles.has('upper') || roles.has('lower') ? 'bounds rounded outwards' : null,
    roles.has('estimate') ? 'estimates rounded to the nearest' : null,
  ].filter(Boolean);
  return said.length ? ` (${said.join('; ')})` : '';
}

function pointTable(points, title, xLabel, yLabel) {
  const rows = points.map((point) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, point.series),
      h(
        'td',
        {},
        roleText(point.x, point.xRole ?? 'given'),
        h('span', { class: 'role' }, ` (${roleNote[point.xRole ?? 'given']})`),
      ),
      h(
        'td',
        {},
        roleText(point.y, point.yRole),
        h('span', { class: 'role' }, ` (${roleNote[point.yRole ?? 'upper']})`),
      ),
    ),
  );
  return h(
    'details',
    { class: 'data-table' },
    h('summary', {}, 'Table view of this chart'),
    scrollRegion(
      `${title}: table`,
      h(
        'table',
        {},
        h('caption', {}, `${yLabel} and ${xLabel}, point by point${roundingCaption(points)}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'series'),
            h('th', { scope: 'col' }, xLabel),
            h('th', { scope: 'col' }, yLabel),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ),
  );
}

function dataTable(points, series, title, xLabel, yLabel) {
  const xs = [...new Set(points.map((point) => point.x))].sort((a, b) => a - b);
  const byKey = new Map(points.map((point) => [`${point.series}\u0000${point.x}`, point]));
  const rows = xs.map((x) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, roleText(x, points[0]?.xRole ?? 'given')),
      series.map((name) => {
        const point = byKey.get(`${name}\u0000${x}`);
        return h('td', {}, point === undefined ? '—' : roleText(point.y, point.yRole));
      }),
    ),
  );
  return h(
    'details',
    { class: 'data-table' },
    h('summary', {}, 'Table view of this chart'),
    scrollRegion(
      `${title}: table`,
      h(
        'table',
        {},
        h('caption', {}, `${yLabel} by ${xLabel}${roundingCaption(points)}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, xLabel),
            series.map((name) => h('th', { scope: 'col' }, name)),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ),
  );
}
