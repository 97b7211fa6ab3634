// Conversions between definitions: zCDP to (ε, δ) by Bun–Steinke 2016 and by the tighter
// Canonne–Kamath–Steinke 2020 bound, and pure ε-DP to zCDP.
import { h, readNumber } from './dom.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { formatNumber } from './format.js';

async function updateConvert({ calculator, input, isCurrent, results, errors, summary }) {
  const fields = { rho: input('rho'), delta: input('delta'), epsilon: input('epsilon') };
  const rho = readNumber(fields.rho);
  const delta = readNumber(fields.delta);
  const epsilon = readNumber(fields.epsilon);
  const zcdp = { type: 'zcdp', rho };
  const conversions = [
    {
      id: 'bun-steinke',
      label: 'zCDP → (ε, δ), Bun–Steinke',
      formula: formulas.bunSteinke,
      request: { op: 'convert', guarantee: zcdp, to: 'approx', delta, conversion: 'bun_steinke' },
    },
    {
      id: 'canonne-kamath-steinke',
      label: 'zCDP → (ε, δ), Canonne–Kamath–Steinke (tighter)',
      formula: formulas.canonneKamathSteinke,
      request: { op: 'convert', guarantee: zcdp, to: 'approx', delta, conversion: 'canonne_kamath_steinke' },
    },
    {
      id: 'pure-to-zcdp',
      label: 'Pure ε-DP → zCDP',
      formula: formulas.pureToZcdp,
      request: { op: 'convert', guarantee: { type: 'pure', epsilon }, to: 'zcdp' },
    },
  ];
  const responses = await askAll(
    calculator,
    conversions.map((conversion) => conversion.request),
  );
  if (!isCurrent()) return;
  const fieldMap = { 'guarantee.rho': fields.rho, delta: fields.delta, 'guarantee.epsilon': fields.epsilon };
  const rows = conversions.map((conversion, i) => ({
    ...conversion,
    response: responses[i],
    fields: fieldMap,
    render: (result) =>
      h(
        'span',
        {},
        guaranteeElement(result.guarantee, {
          vacuous: result.vacuous,
          deltaIsGiven: result.guarantee.type === 'approx',
        }),
      ),
  }));
  results.replaceChildren(methodTable({ caption: 'Conversions', rows, errors }));
  const [, tighter, pureToZcdp] = responses;
  const parts = [];
  if (tighter.ok && !tighter.result.vacuous) {
    parts.push(
      `ρ = ${fields.rho.value.trim()} gives ε ≤ ${formatNumber(tighter.result.guarantee.epsilon)} at δ = ${fields.delta.value.trim()}`,
    );
  }
  if (pureToZcdp.ok)
    parts.push(`ε = ${fields.epsilon.value.trim()} gives ρ ≤ ${formatNumber(pureToZcdp.result.guarantee.rho)}`);
  summary(parts.length ? `${parts.join('; ')}.` : 'No answer: check the marked fields.');
}

export default {
  name: 'convert',
  title: 'Conversions',
  question: 'Translate a guarantee between definitions: zCDP to (ε, δ) by two conversions, and pure ε-DP to zCDP.',
  form: [
    {
      legend: 'zCDP to (ε, δ)',
      fields: [
        { name: 'rho', label: 'zCDP', symbol: 'ρ', type: 'number', value: '0.5' },
        { name: 'delta', label: 'Target', symbol: 'δ', type: 'number', value: '1e-6' },
      ],
    },
    {
      legend: 'Pure DP to zCDP',
      fields: [{ name: 'epsilon', label: 'Pure DP', symbol: 'ε', type: 'number', value: '1' }],
    },
  ],
  update: updateConvert,
};
