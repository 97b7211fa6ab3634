// Conversions between definitions: zCDP to (ε, δ) by Bun–Steinke 2016 and by the tighter
// Canonne–Kamath–Steinke 2020 bound, and pure ε-DP to zCDP.
import { h, readNumber } from './dom.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { formatNumber } from './format.js';
import { citeSentence, paperGuarantee } from './headline.js';

async function updateConvert({ calculator, input, isCurrent, results, errors, summary, isSet, explain }) {
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
  // Two questions side by side: the one whose input the person did not set shows its example.
  const zcdpAsked = isSet('rho') || isSet('delta');
  const pureAsked = isSet('epsilon');
  const examples = {
    'bun-steinke': zcdpAsked ? undefined : `example ρ = ${fields.rho.value.trim()}, not set by you`,
    'canonne-kamath-steinke': zcdpAsked ? undefined : `example ρ = ${fields.rho.value.trim()}, not set by you`,
    'pure-to-zcdp': pureAsked ? undefined : `example ε = ${fields.epsilon.value.trim()}, not set by you`,
  };
  const rows = conversions.map((conversion, i) => ({
    ...conversion,
    example: examples[conversion.id],
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
  summary(...headlineOf(responses, fields, { zcdpAsked, pureAsked }));
  // The panel explains the guarantee converted (a conversion only loosens it): ρ unless only ε was asked.
  const explained = pureAsked && !zcdpAsked ? 2 : 1;
  if (responses[explained].ok) explain({ of: conversions[explained].request });
}

/**
 * The headline: the conversions the person asked for (those whose inputs they set); with nothing
 * set, both, as the example. Returns [text, { cite }].
 */
function headlineOf([, tighter, pureToZcdp], fields, { zcdpAsked, pureAsked }) {
  const rho = fields.rho.value.trim();
  const epsilon = fields.epsilon.value.trim();
  const parts = {
    zcdp:
      tighter.ok && !tighter.result.vacuous
        ? {
            text: `ρ = ${rho} gives ε ≤ ${formatNumber(tighter.result.guarantee.epsilon)} at δ = ${fields.delta.value.trim()}`,
            cite: citeSentence({
              subject: `Every ${rho}-zCDP mechanism`,
              guarantee: paperGuarantee(tighter.result.guarantee, { deltaIsGiven: true }),
              method: 'the conversion of Canonne, Kamath and Steinke',
              citation: tighter.result.citation,
            }),
          }
        : null,
    pure: pureToZcdp.ok
      ? {
          text: `ε = ${epsilon} gives ρ ≤ ${formatNumber(pureToZcdp.result.guarantee.rho)}`,
          cite: citeSentence({
            subject: `Every ${epsilon}-DP mechanism`,
            guarantee: paperGuarantee(pureToZcdp.result.guarantee),
            method: 'the conversion of pure DP to zCDP',
            citation: pureToZcdp.result.citation,
          }),
        }
      : null,
  };
  const asked = [zcdpAsked ? 'zcdp' : null, pureAsked ? 'pure' : null].filter(Boolean);
  const shown = (asked.length ? asked : ['zcdp', 'pure']).map((name) => parts[name]).filter(Boolean);
  if (shown.length === 0) return ['No answer: check the marked fields.'];
  const example = zcdpAsked || pureAsked ? '' : 'Example: ';
  return [`${example}${shown.map((part) => part.text).join('; ')}.`, { cite: shown[0].cite }];
}

export { updateConvert };
