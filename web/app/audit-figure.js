// The Audit section's plot: the claim's trade-off curve drawn as an ROC curve (the most any test can
// catch at each false-positive rate, as the claim bounds it; op 'tradeoff'), the rates the attack
// observed, and their Clopper–Pearson box (op 'audit': TPR and FPR each within its interval, at the
// audit's confidence). A claim is refuted where the box's corner (FPR_hi, TPR_lo) lies above its curve.
// Linear axes, or a log false-positive axis (the rates of an audit sit near FPR 0, its TPR near 1), as
// the attacker panel offers (attacker.js).
import { h } from './dom.js';
import { chartFigure } from './chart.js';
import { axesChoice } from './attacker.js';

/** The claim's curve as chart points, from false-positive rate `from` on. */
function claimPoints(tradeoff, from) {
  const { alpha, tpr } = tradeoff.curve;
  return alpha
    .map((x, i) => ({ series: 'what the claim allows (at most)', key: 'audit-claim', x, y: Math.min(1, tpr[i]) }))
    .filter((point) => point.x >= from);
}

/** The box [FPR_lo, FPR_hi] × [TPR_lo, TPR_hi], drawn as its outline (a closed line through its corners). */
function boxPoints(result, confidence, from) {
  const [tprLow, tprHigh] = result.tpr_interval;
  const [fprLow, fprHigh] = result.fpr_interval;
  const series = `${confidence} Clopper–Pearson box`;
  const corner = (x, xRole, y, yRole) => ({ series, key: 'audit-box', x, y, xRole, yRole });
  const corners = [
    corner(fprLow, 'lower', tprLow, 'lower'),
    corner(fprHigh, 'upper', tprLow, 'lower'),
    corner(fprHigh, 'upper', tprHigh, 'upper'),
    corner(fprLow, 'lower', tprHigh, 'upper'),
    corner(fprLow, 'lower', tprLow, 'lower'),
  ];
  // On a log axis the box's edge at FPR 0 (the interval is one-sided) is drawn where the axis starts.
  return corners.map((point) => ({ ...point, x: Math.max(point.x, from) }));
}

function figureOf({ result, tradeoff, observed, confidence, log }) {
  // A log axis starts three decades below the largest FPR the attack may have had.
  const from = log ? result.fpr_interval[1] / 1000 : 0;
  const points = [];
  if (tradeoff) points.push(...claimPoints(tradeoff, from));
  points.push(...boxPoints(result, confidence, from));
  if (observed && observed.x >= from) {
    points.push({ series: 'observed rates', key: 'audit-observed', ...observed, xRole: 'estimate', yRole: 'estimate' });
  }
  const guess = tradeoff ? tradeoff.curve.alpha : [0, 0.5, 1];
  points.push(
    ...guess
      .filter((x) => x >= from)
      .map((x) => ({ series: 'random guess', key: 'attacker-guess', x, y: x, xRole: 'given', yRole: 'given' })),
  );
  return chartFigure(points, {
    title: `The claim against the attack: true-positive against false-positive rate${log ? ' (log FPR axis)' : ''}`,
    xLabel: 'false-positive rate',
    yLabel: 'true-positive rate',
    xName: 'false-positive rate (non-members flagged)',
    yName: 'true-positive rate (members caught)',
    xLog: log,
    longTable: true,
    description:
      'ROC plane: the most any test can catch at each false-positive rate if the claim holds, the rates the attack observed, and the box their Clopper–Pearson intervals leave; the claim is refuted where the box’s lower right corner lies above its curve.',
    file: 'dpcalc-audit-tradeoff',
  });
}

/**
 * The figure with its axes choice, log axes first (an audit's rates sit near FPR 0): `result` of op
 * 'audit' (its tpr_interval and fpr_interval), `tradeoff` the claim's op 'tradeoff' result (or null
 * without a claim), `observed` the observed rates { x: FPR, y: TPR } (or null), `confidence` as the
 * page words it ("95%"). The linear figure stays in the page while hidden: its CSV has every point
 * as computed (the log figure moves the box's edge at rate 0), and it is the one the export bar gives.
 */
export function auditFigure(spec) {
  const linear = figureOf({ ...spec, log: false });
  linear.dataset.tradeoff = '';
  const log = figureOf({ ...spec, log: true });
  const show = (logAxes) => {
    linear.hidden = logAxes;
    log.hidden = !logAxes;
  };
  show(true);
  return h('div', { class: 'audit-figure' }, axesChoice(show, 'log'), h('div', { class: 'chart-holder' }, linear, log));
}
