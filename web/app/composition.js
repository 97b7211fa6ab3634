// Composition: k mechanisms, each (ε₀, δ₀)-DP, composed by every closed-form method, in one table,
// and ε against the number of compositions for every method.
import { h, readNumber } from './dom.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { chartFigure } from './chart.js';
import { formatNumber } from './format.js';
import { plotRange } from './range.js';

// Each method: its request for `count` copies of `item` at total δ target `delta`, and the ε it
// reaches (for the plot).
export const compositionMethods = [
  { id: 'basic', label: 'Basic composition', formula: formulas.basic,
    request: (item, count) => ({ op: 'compose', method: 'basic', items: [{ ...item, count }] }) },
  { id: 'parallel', label: 'Parallel composition (disjoint records only)', formula: formulas.parallel,
    request: (item, count) => ({ op: 'compose', method: 'parallel', items: [{ ...item, count }] }) },
  { id: 'advanced-drv', label: 'Advanced composition (Dwork–Rothblum–Vadhan)', formula: formulas.advancedDrv,
    request: (item, count, delta) => ({ op: 'compose', method: 'advanced', variant: 'dwork_rothblum_vadhan', delta, items: [{ ...item, count }] }) },
  { id: 'advanced-kov', label: 'Advanced composition (Kairouz–Oh–Viswanath)', formula: formulas.advancedKov,
    request: (item, count, delta) => ({ op: 'compose', method: 'advanced', variant: 'kairouz', delta, items: [{ ...item, count }] }) },
  { id: 'optimal', label: 'Optimal composition (exact)', formula: formulas.optimal,
    request: (item, count, delta) => ({ op: 'compose', method: 'optimal', delta, items: [{ ...item, count }] }) },
  { id: 'zcdp', label: 'zCDP composition', formula: formulas.zcdp,
    request: (item, count, delta) => ({ op: 'compose', method: 'zcdp', delta, items: [{ ...item, count }] }) },
];

/** The (ε, δ) a composition result promises: zCDP results carry it in `approx`. */
export const approxOf = (result) => result.approx ?? result.guarantee;

/** A pure item when δ₀ is exactly 0 (so zCDP composition applies), an approximate one otherwise. */
export function itemOf(epsilon, delta) {
  return { guarantee: delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta } };
}

function renderResult(result) {
  if (result.approx) {
    return h('span', {}, guaranteeElement(result.guarantee), ' → ', guaranteeElement(result.approx, { vacuous: result.vacuous, deltaIsGiven: true }));
  }
  return guaranteeElement(result.guarantee, { vacuous: result.vacuous });
}

function noteOf(result) {
  return typeof result.delta_slack === 'number' ? `with δ′ = ${formatNumber(result.delta_slack, 'down')}` : '';
}

export async function updateComposition({ calculator, form, isCurrent, results, plots, errors }) {
  const input = (name) => form.elements[`composition.${name}`];
  const fields = { epsilon: input('epsilon'), itemDelta: input('item_delta'), count: input('count'), delta: input('delta'), kmax: input('kmax') };
  const epsilon = readNumber(fields.epsilon);
  const itemDelta = readNumber(fields.itemDelta);
  const count = readNumber(fields.count);
  const delta = readNumber(fields.delta);
  const item = itemOf(epsilon, itemDelta);
  const fieldMap = { 'items.0.guarantee.epsilon': fields.epsilon, 'items.0.guarantee.delta': fields.itemDelta,
    'items.0.count': fields.count, delta: fields.delta };
  // zCDP composition does not apply to items with δ₀ > 0; that is said in its row, while δ₀ itself
  // stays valid for every other method.
  const zcdpFieldMap = { ...fieldMap };
  delete zcdpFieldMap['items.0.guarantee.delta'];

  const counts = plotRange(fields.kmax, errors, { max: 100000, points: 24, log: true });
  const plotted = compositionMethods.filter((method) => method.id !== 'parallel');
  const plotJobs = counts.flatMap((n) => plotted.map((method) => ({ n, method, request: method.request(item, n, delta) })));
  const [responses, plotResponses] = await Promise.all([
    askAll(calculator, compositionMethods.map((method) => method.request(item, count, delta))),
    askAll(calculator, plotJobs.map((job) => job.request)),
  ]);
  if (!isCurrent()) return;

  const rows = compositionMethods.map((method, i) => ({ id: method.id, label: method.label, formula: method.formula,
    response: responses[i], render: renderResult, note: noteOf, fields: method.id === 'zcdp' ? zcdpFieldMap : fieldMap }));
  results.replaceChildren(methodTable({ caption: `k = ${fields.count.value.trim()} mechanisms, each (ε₀, δ₀)-DP; total δ target ${fields.delta.value.trim()}`, rows, errors }));

  const points = [];
  plotResponses.forEach((response, i) => {
    if (!response.ok || response.result.vacuous) return;
    const y = approxOf(response.result).epsilon;
    if (Number.isFinite(y) && y > 0) points.push({ series: plotJobs[i].method.label, x: plotJobs[i].n, y });
  });
  plots.replaceChildren(chartFigure(points, { title: 'ε against the number of compositions, for every method',
    xLabel: 'number of compositions k', yLabel: 'total ε', xLog: true, yLog: true,
    description: 'Total epsilon of k compositions for each composition method, log-log axes.', width: 960 }));
}
