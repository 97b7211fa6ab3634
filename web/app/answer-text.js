// Any op's answer in one line of text, for the <dp-calculator> element's rows and the command line
// (web/cli.js): "ε ≤ 8, δ ≤ 0.0017343", "σ = 37.307: ε ≤ 1 at δ = 1 × 10⁻⁵", "ε(α) ≤ 0.12852 at
// α = 2, …". Every bound is rounded up and a budget one may spend (a split) down; a δ that was an
// input is shown as "at δ = …". No DOM here.
import { formatNumber, numberText } from './format.js';

const kListed = 4; // points of a curve said in the line (the rest: "…")

/** "ε ≤ 8, δ ≤ 0.0017343": a guarantee; `request`: the request it answers (its δ, its op). */
function guaranteeText(g, request) {
  const perStep = request.op === 'split';
  const relation = perStep ? '=' : '≤';
  const direction = perStep ? 'down' : 'up'; // a budget you may spend is rounded down
  if (g.type === 'zcdp') return `ρ ${relation} ${formatNumber(g.rho, direction)}`;
  if (g.type === 'rdp') return curveText('ε(α)', g.epsilons, 'α', g.orders);
  const parts = [`ε ${relation} ${formatNumber(g.epsilon, direction)}`];
  const deltaGiven = typeof (request.delta ?? request.target?.delta) === 'number' && !perStep;
  if (g.type === 'approx' && g.delta !== undefined)
    parts.push(
      deltaGiven ? `at δ = ${formatNumber(g.delta, 'down')}` : `δ ${relation} ${formatNumber(g.delta, direction)}`,
    );
  return parts.join(deltaGiven ? ' ' : ', ') + (perStep ? ' per step' : '');
}

/** "δ(ε) ≤ 0.38293 at ε = 0, 0.12694 at ε = 1, …": upper bounds at the given points. */
function curveText(name, values, at, points) {
  const shown = values
    .slice(0, kListed)
    .map((value, i) => `${formatNumber(value)} at ${at} = ${numberText(points[i])}`);
  return `${name} ≤ ${shown.join(', ')}${values.length > kListed ? ', …' : ''}`;
}

// The value a calibration or a solver found, by the field that holds it, and its symbol.
const kFound = { sigma: 'σ', scale: 'b', noise_multiplier: 'noise multiplier σ' };

/** "σ = 37.307: " for an answer that found a value (a calibration, a solver), else ''. */
function foundText(result, request) {
  if (typeof result.unknown === 'string' && typeof result[result.unknown] === 'number')
    return `${result.unknown.replaceAll('_', ' ')} = ${numberText(result[result.unknown])}: `;
  const name =
    request.op === 'calibrate' || (request.target && request.noise_multiplier === undefined)
      ? Object.keys(kFound).find((key) => key === request.unknown || (key === 'noise_multiplier' && key in result))
      : undefined;
  return name && typeof result[name] === 'number' ? `${kFound[name]} = ${formatNumber(result[name], 'up')}: ` : '';
}

/** The answers that carry no single guarantee, by their own fields. */
function otherText(result, request) {
  if (Array.isArray(result.rows))
    return result.rows.map((row) => `${row.title ?? row.sampling}: ${answerText(row, request)}`).join('; ');
  if (Array.isArray(result.delta_upper)) return curveText('δ(ε)', result.delta_upper, 'ε', result.epsilons);
  if (Array.isArray(result.epsilons) && Array.isArray(result.orders))
    return curveText('ε(α)', result.epsilons, 'α', result.orders);
  if (Array.isArray(result.tpr_at_fpr)) {
    const points = result.tpr_at_fpr.map(({ fpr, tpr }) => `TPR ≤ ${formatNumber(tpr)} at FPR ${numberText(fpr)}`);
    return [...points, `advantage ≤ ${formatNumber(result.advantage)}`].join(', ');
  }
  if (result.proven) {
    const plan =
      typeof result.sigma === 'number' && request.op === 'groupwise_plan' ? `σ = ${formatNumber(result.sigma)}: ` : '';
    return `${plan}proven ${guaranteeText({ type: 'zcdp', rho: result.proven.rho }, request)}${
      result.proven.epsilon === undefined
        ? ''
        : `, ε ≤ ${formatNumber(result.proven.epsilon)} at δ = ${formatNumber(result.proven.delta, 'down')}`
    }`;
  }
  if (typeof result.mean_relative_error === 'number')
    return `simulated mean relative error ${formatNumber(result.mean_relative_error, 'nearest')} (an estimate from ${numberText(result.samples)} samples)`;
  return null;
}

/**
 * `result` (of `request`) in one line; the method's name when the answer has no number to say.
 * `full`: with the value a calibration or solver found and the lower bound where there is one (the
 * command line); without, the bound alone (the element's rows, which name what they solve for).
 */
export function answerText(result, request = {}, { full = false } = {}) {
  if (result.vacuous) return 'no meaningful guarantee (δ ≥ 1)';
  const g = result.guarantee ?? (result.per_item && { type: 'approx', ...result.per_item });
  if (!g) return otherText(result, request) ?? result.method ?? 'answered';
  if (!full) return guaranteeText(g, request);
  const lower =
    typeof result.epsilon_lower === 'number' ? ` (lower bound ε ≥ ${formatNumber(result.epsilon_lower, 'down')})` : '';
  return `${foundText(result, request)}${guaranteeText(g, request)}${lower}`;
}
