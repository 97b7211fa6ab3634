// The Composition section's figures: ε against the number of compositions k for every method (the
// PLD's upper bound added once computed), and the privacy profile δ(ε) of every method side by side
// (the PLD's upper and lower curves added once computed).
import { h } from './dom.js';
import { chartFigure } from './chart.js';
import { approxOf } from './compose-methods.js';
import { kProfileDeltas } from './composition-requests.js';

const kPldSeries = { upper: 'PLD upper bound', lower: 'PLD lower bound' };
// The PLD curves are shown down to the smallest δ the closed forms are asked at (below it, its upper
// bound flattens at the tail mass it cut and its lower bound reaches 0, which a log axis cannot show).
const kProfileFloor = kProfileDeltas[0];

/** The closed forms' points of ε against k (answered items of role 'plot-steps'). */
export function stepsPoints(answered) {
  const points = [];
  for (const { response, method, n } of answered) {
    if (!response.ok || response.result.vacuous) continue;
    const y = approxOf(response.result).epsilon;
    if (Number.isFinite(y) && y > 0)
      points.push({ series: method.label, key: method.id, x: n, y, xRole: 'given', yRole: 'upper' });
  }
  return points;
}

/** The PLD's points of ε against k (answered items of role 'pld-steps'). */
export const pldStepsPoints = (answered) =>
  answered
    .filter(({ response }) => response.ok && typeof response.result.epsilon_upper === 'number')
    .map(({ response, n }) => ({
      series: kPldSeries.upper,
      key: 'pld-upper',
      x: n,
      y: response.result.epsilon_upper,
      xRole: 'given',
      yRole: 'upper',
    }));

/** Closed-form profile points: at each δ target, the ε a method promises (when its δ stays within the target). */
export function closedFormProfile(answered) {
  const points = [];
  for (const { response, method, delta: target } of answered) {
    if (!response.ok || response.result.vacuous) continue;
    const { epsilon, delta = 0 } = approxOf(response.result);
    if (Number.isFinite(epsilon) && epsilon > 0 && delta <= target) {
      points.push({ series: method.label, key: method.id, x: epsilon, y: target, xRole: 'upper', yRole: 'given' });
    }
  }
  return points;
}

/** The PLD's upper and lower privacy profile (op 'profile'). */
export function pldProfile(result) {
  const points = [];
  result.epsilons.forEach((epsilon, i) => {
    for (const side of ['upper', 'lower']) {
      const delta = result[`delta_${side}`][i];
      if (delta >= kProfileFloor && delta <= 1)
        points.push({
          series: kPldSeries[side],
          key: `pld-${side}`,
          x: epsilon,
          y: delta,
          xRole: 'given',
          yRole: side,
        });
    }
  });
  return points;
}

export function profileFigure(points, pldText) {
  const figure = chartFigure(points, {
    title: 'Privacy profile δ(ε) of every method',
    xLabel: 'ε',
    yLabel: 'δ',
    xName: 'total privacy loss ε',
    yName: 'total failure probability δ',
    xLog: true,
    yLog: true,
    description:
      'For each method, the delta it guarantees at each epsilon, log-log axes; the PLD lower bound is dashed.',
    longTable: true,
    file: 'dpcalc-composition-profile',
    emptyText: 'Nothing to plot yet: no method answered for these inputs.',
  });
  if (pldText)
    figure.querySelector('figcaption').after(h('p', { class: 'note', dataset: { profileStatus: '' } }, pldText));
  return figure;
}

/** ε against k: the closed forms' points, then the PLD's upper bounds once they are computed. */
export function stepsFigure(points, pldText, single = true) {
  const figure = chartFigure(points, {
    title: single
      ? 'ε against the number of compositions k, for every method'
      : 'ε against the number of times k the whole ledger runs, for every method',
    xLabel: single ? 'number of compositions k' : 'times the ledger runs k',
    yLabel: 'total ε',
    yName: 'total privacy loss ε at the target δ',
    xLog: true,
    yLog: true,
    file: 'dpcalc-composition-epsilon',
    description: 'Total epsilon of k compositions for each composition method, log-log axes.',
    emptyText: 'Nothing to plot yet: no method answered for these inputs.',
  });
  if (pldText)
    figure.querySelector('figcaption').after(h('p', { class: 'note', dataset: { stepsStatus: '' } }, pldText));
  return figure;
}
