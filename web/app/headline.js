// The headline of a section and its "Cite this result" sentence. The headline answers the question
// asked: in the person's own guarantee type first, at the δ they gave, and it says when a number
// rests on an example value they did not set. The sentence is the headline as a paper would state
// it: the numbers (rounded outwards, three digits), the method and its citation.
import { formatNumber, numberText, roundTo } from './format.js';

const kPaperDigits = 3;

/** A number for a sentence in a paper: 3 significant digits, rounded in `direction`; 1 × 10⁻⁵ as 10⁻⁵. */
export function paperNumber(x, direction = 'up') {
  return numberText(roundTo(x, direction, kPaperDigits)).replace(/^1 × (10\S+)$/, '$1');
}

/** A given number in the page's notation, as a paper writes it: "1e-6" → "10⁻⁶", 2.5e-7 → "2.5 × 10⁻⁷". */
export const givenNumber = (x) => numberText(x).replace(/^1 × (10\S+)$/, '$1');

/**
 * A guarantee as a paper states it: "(2.59, 10⁻⁵)-DP", "2-DP" (pure), "0.5-zCDP". `deltaIsGiven`:
 * the δ was chosen (shown as given), not bounded (rounded up).
 */
export function paperGuarantee(guarantee, { deltaIsGiven = false } = {}) {
  if (guarantee.type === 'zcdp') return `${paperNumber(guarantee.rho)}-zCDP`;
  if (guarantee.type === 'pure' || !(guarantee.delta > 0)) return `${paperNumber(guarantee.epsilon)}-DP`;
  const delta = deltaIsGiven ? givenNumber(guarantee.delta) : paperNumber(guarantee.delta);
  return `(${paperNumber(guarantee.epsilon)}, ${delta})-DP`;
}

/** A guarantee in the headline's words: "ε ≤ 8, δ ≤ 0.0017343", "ε ≤ 2.5916 at δ = 1 × 10⁻⁵", "ρ ≤ 2". */
export function boundText(guarantee, { deltaIsGiven = false } = {}) {
  if (guarantee.type === 'zcdp') return `ρ ≤ ${formatNumber(guarantee.rho)}`;
  const epsilon = `ε ≤ ${formatNumber(guarantee.epsilon)}`;
  if (guarantee.type === 'pure' || guarantee.delta === undefined) return epsilon;
  return deltaIsGiven
    ? `${epsilon} at δ = ${formatNumber(guarantee.delta, 'down').replace(/^1 × /, '')}`
    : `${epsilon}, δ ≤ ${formatNumber(guarantee.delta)}`;
}

/** A method's name inside a sentence: "Optimal composition (exact)" → "optimal composition (exact)" (not "PLD …"). */
export const methodWords = (method = '') =>
  /^[A-Z][a-z]/.test(method) ? method[0].toLowerCase() + method.slice(1) : method;

/**
 * The sentence for a paper: `${subject} ${verb} ${guarantee} ${scope}, by ${method} (${citation}).`
 * Each part is a string; `scope` and `assumption` may be empty.
 */
export function citeSentence({
  subject,
  verb = 'satisfies',
  guarantee,
  scope = '',
  method,
  citation,
  assumption = '',
}) {
  const where = scope ? ` ${scope}` : '';
  const assuming = assumption ? `, ${assumption}` : '';
  return `${subject} ${verb} ${guarantee}${where}, by ${method} (${citation})${assuming}.`;
}

/**
 * What kind of number a headline states, for the label under it (mount.js): `kind` is 'proven' (an
 * upper bound a theorem guarantees), 'not-proven' (rests on an assumption nobody has proven),
 * 'estimate' (a numerical estimate) or 'lower-bound' (what an attack shows); `text` says it in words.
 */
export const proof = {
  proven: (text = 'Proven upper bound') => ({ kind: 'proven', text }),
  notProven: (text) => ({ kind: 'not-proven', text }),
  estimate: (text) => ({ kind: 'estimate', text }),
  lowerBound: (text) => ({ kind: 'lower-bound', text }),
};

/** A closed form's label: proven, and exact up to the rounding shown (no numerical bracket). */
export const kClosedForm = proof.proven('Proven upper bound, closed form (no numerical error)');

/** The bracket of a numeric answer: "exact ε ∈ [4.1, 4.3] (numeric; the headline gives the upper end)". */
export const epsilonBracket = (lower, upper) =>
  `exact ε ∈ [${formatNumber(lower, 'down')}, ${formatNumber(upper, 'up')}] (numeric; the headline gives the upper end)`;
