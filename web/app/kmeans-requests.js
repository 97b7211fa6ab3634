// The DP k-means worked example's requests, shared by the page (kmeans-update.js) and the
// <dp-calculator> element. Lloyd's algorithm with T iterations releases 2T Laplace answers, each at
// ε/(2T) (the algorithm's own budget rule, not an accounting result): the requests compose them
// after each iteration shown (basic and zCDP composition), and all 2T by four methods.
import { parseNumber } from './format.js';
import { compositionMethods, itemOf } from './compose-methods.js';

export const kMaxIterations = 10000;
const kShownIterations = 12;
const kTotalMethods = ['basic', 'advanced-kov', 'optimal', 'zcdp'];
const kFields = { 'items.0.guarantee.epsilon': 'epsilon', delta: 'delta' };

/** The iterations shown step by step: all of them when few, else the first and last few (null: "…"). */
export function shownIterations(iterations) {
  if (iterations <= kShownIterations) return Array.from({ length: iterations }, (_, i) => i + 1);
  const head = Array.from({ length: kShownIterations - 3 }, (_, i) => i + 1);
  return [...head, null, iterations - 1, iterations];
}

/** The number of iterations, or null when the text is not a whole number from 1 to kMaxIterations. */
export function iterationsOf(inputs) {
  const text = inputs.iterations.trim();
  const iterations = Number(text);
  return /^\d+$/.test(text) && iterations >= 1 && iterations <= kMaxIterations ? iterations : null;
}

/** The ε of each release, ε/(2T). */
export const stepEpsilonOf = (inputs) => parseNumber(inputs.epsilon) / (2 * iterationsOf(inputs));

/**
 * For each iteration shown, its basic and zCDP totals so far (role 'step', with `iteration` and
 * `method`), then the totals of all 2T releases (role 'row'); none when the iterations are not a
 * whole number in range.
 */
export function requests(inputs) {
  const iterations = iterationsOf(inputs);
  if (iterations === null) return [];
  const delta = parseNumber(inputs.delta);
  const item = itemOf(stepEpsilonOf(inputs), 0);
  const steps = shownIterations(iterations)
    .filter((t) => t !== null)
    .flatMap((t) => [
      {
        id: `step-${t}-basic`,
        role: 'step',
        iteration: t,
        method: 'basic',
        request: { op: 'compose', method: 'basic', items: [{ ...item, count: 2 * t }] },
      },
      {
        id: `step-${t}-zcdp`,
        role: 'step',
        iteration: t,
        method: 'zcdp',
        request: { op: 'compose', method: 'zcdp', delta, items: [{ ...item, count: 2 * t }] },
      },
    ]);
  const totals = compositionMethods
    .filter((method) => kTotalMethods.includes(method.id))
    .map((method) => ({
      id: method.id,
      role: 'row',
      label: method.label,
      formula: method.formula,
      request: method.request([{ ...item, count: 2 * iterations }], delta),
      fields: kFields,
    }));
  return [...steps, ...totals];
}
