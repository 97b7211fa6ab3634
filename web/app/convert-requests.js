// The Conversions section's requests, shared by the page (convert-update.js) and the <dp-calculator>
// element: zCDP to (ε, δ) by Bun–Steinke 2016 and by the tighter Canonne–Kamath–Steinke 2020
// bound, and pure ε-DP to zCDP.
import { parseNumber } from './format.js';

const kFields = { 'guarantee.rho': 'rho', delta: 'delta', 'guarantee.epsilon': 'epsilon' };

/** The three conversions (role 'row'), each with its label and request. */
export function requests(inputs) {
  const zcdp = { type: 'zcdp', rho: parseNumber(inputs.rho) };
  const delta = parseNumber(inputs.delta);
  const epsilon = parseNumber(inputs.epsilon);
  const row = (id, label, request) => ({ id, role: 'row', label, request, fields: kFields });
  return [
    row('bun-steinke', 'zCDP → (ε, δ), Bun–Steinke', {
      op: 'convert',
      guarantee: zcdp,
      to: 'approx',
      delta,
      conversion: 'bun_steinke',
    }),
    row('canonne-kamath-steinke', 'zCDP → (ε, δ), Canonne–Kamath–Steinke (tighter)', {
      op: 'convert',
      guarantee: zcdp,
      to: 'approx',
      delta,
      conversion: 'canonne_kamath_steinke',
    }),
    row('pure-to-zcdp', 'Pure ε-DP → zCDP', { op: 'convert', guarantee: { type: 'pure', epsilon }, to: 'zcdp' }),
  ];
}

/** The two questions side by side: which the person asked (set an input of); with none set, both. */
export function askedQuestions(isSet) {
  return { zcdp: isSet('rho') || isSet('delta'), pure: isSet('epsilon') };
}

/** The ids of the rows that answer the question as asked. */
export function asked(inputs, isSet) {
  const { zcdp, pure } = askedQuestions(isSet);
  const ids = [];
  if (zcdp || !pure) ids.push('bun-steinke', 'canonne-kamath-steinke');
  if (pure || !zcdp) ids.push('pure-to-zcdp');
  return ids;
}
