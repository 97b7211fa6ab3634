// The group privacy section's "largest group for a target" question (op 'group' with unknown 'k'):
// for each description of one record (the per-record guarantee, pure or (ε, δ), and the Laplace and
// Gaussian mechanisms), the largest k whose group guarantee stays within the target (ε, δ). The core
// answers by bisection on the same group bound the section shows for a given k, and reports the
// bound at the answer and at k + 1; the requests are group-requests.js, and this module only renders
// their answers.
import { h } from './dom.js';
import { formatNumber, parseNumber } from './format.js';
import { guaranteeElement, inputsOf, methodTable } from './results.js';
import { citeSentence, methodWords, paperGuarantee, proof } from './headline.js';

const kFormula = String.raw`k^\star = \max\{k : \varepsilon_k \le \varepsilon_{\text{target}},\ \delta_k \le \delta_{\text{target}}\}`;

const largestText = (result) =>
  result.all_meet ? `every k up to ${formatNumber(result.k)}` : `k ≤ ${result.k.toLocaleString('en-US')}`;

/** A solved row: the largest k, and the bound at k and at k + 1. */
function rowOf(item, { form, own }) {
  const name = item.kind;
  return {
    id: item.id,
    label: item.label,
    formula: kFormula,
    response: item.response,
    render: (result) => h('span', { class: 'largest-k', dataset: { k: String(result.k) } }, largestText(result)),
    note: (result) =>
      h(
        'span',
        {},
        'at that k: ',
        guaranteeElement(result.guarantee, { deltaIsGiven: name === 'gaussian' }),
        result.beyond?.guarantee
          ? ['; at k + 1: ', guaranteeElement(result.beyond.guarantee, { vacuous: result.beyond.vacuous })]
          : '',
      ),
    example: own[name] ? undefined : 'example values, not set by you',
    fields: inputsOf(form, item.fields, item.request),
  };
}

/**
 * Renders the answered items of the largest-group question (group-requests.js) into `results`;
 * returns the headline.
 */
export function solveGroup({ answered, inputs, form, own, results, plots, errors }) {
  const target = { epsilon: parseNumber(inputs.target_epsilon), delta: parseNumber(inputs.target_delta) };
  const rows = answered.map((item) => rowOf(item, { form, own }));
  const within = `ε ≤ ${formatNumber(target.epsilon)}${target.delta > 0 ? `, δ ≤ ${formatNumber(target.delta)}` : ''}`;
  results.replaceChildren(methodTable({ caption: `The largest group within ${within}`, rows, errors }));
  plots.replaceChildren();
  const chosen = answered.filter((item) => own[item.kind]);
  const shown = (chosen.length ? chosen : answered.filter((item) => item.kind === 'guarantee')).filter(
    (item) => item.response.ok,
  );
  if (shown.length === 0) return ['No answer: check the marked fields.'];
  const parts = shown.map((item) => `${item.label.split(' (')[0].toLowerCase()}: ${largestText(item.response.result)}`);
  // For a paper: the bound at the largest k of the first description.
  const { result } = shown[0].response;
  const cite = citeSentence({
    subject: `A group of ${result.k.toLocaleString('en-US')} records (the largest within ${within}, ${shown[0].label.split(' (')[0].toLowerCase()})`,
    guarantee: paperGuarantee(result.guarantee, { deltaIsGiven: shown[0].kind === 'gaussian' }),
    method: methodWords(result.method),
    citation: result.citation,
  });
  return [
    `${chosen.length ? '' : 'Example: '}The largest group within ${within}: ${parts.join('; ')}.`,
    { cite, result, proof: proof.proven('Proven: the upper bound at that group size is within the target') },
  ];
}
