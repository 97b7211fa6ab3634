// The group privacy section's "largest group for a target" question (op 'group' with unknown 'k'):
// for each description of one record (the per-record guarantee, pure or (ε, δ), and the Laplace and
// Gaussian mechanisms), the largest k whose group guarantee stays within the target (ε, δ). The core
// answers by bisection on the same group bound the section shows for a given k, and reports the
// bound at the answer and at k + 1; this module only renders them.
import { h } from './dom.js';
import { formatNumber } from './format.js';
import { askAll, guaranteeElement, methodTable } from './results.js';

/** The four solve requests for the form's values and the target (ε_t, δ_t). */
function solveRequests(values, target) {
  const withDelta = { epsilon: target.epsilon, delta: target.delta };
  const solve = (record, own) => ({ op: 'group', unknown: 'k', ...record, target: own });
  const pureRecord = values.delta === 0;
  return {
    guarantee: pureRecord
      ? solve({ guarantee: { type: 'pure', epsilon: values.epsilon } }, { epsilon: target.epsilon })
      : solve({ guarantee: { type: 'approx', epsilon: values.epsilon, delta: values.delta } }, withDelta),
    laplace: solve(
      { mechanism: { type: 'laplace', scale: values.scale, sensitivity: values.sensitivity } },
      { epsilon: target.epsilon },
    ),
    gaussian: solve(
      { mechanism: { type: 'gaussian', sigma: values.sigma, sensitivity: values.sensitivity } },
      withDelta,
    ),
  };
}

const kFormula = String.raw`k^\star = \max\{k : \varepsilon_k \le \varepsilon_{\text{target}},\ \delta_k \le \delta_{\text{target}}\}`;

const kLabels = {
  guarantee: 'Per-record guarantee (generic group privacy)',
  laplace: 'Laplace mechanism (b, Δ)',
  gaussian: 'Gaussian mechanism (σ, Δ): exact',
};

const largestText = (result) =>
  result.all_meet ? `every k up to ${formatNumber(result.k)}` : `k ≤ ${result.k.toLocaleString('en-US')}`;

/** Renders the answers of the largest-group question into `results`; returns the headline. */
export async function solveGroup({ calculator, values, fields, own, results, plots, errors, isCurrent }) {
  const target = { epsilon: values.targetEpsilon, delta: values.targetDelta };
  const requests = solveRequests(values, target);
  const names = Object.keys(requests);
  const answers = await askAll(
    calculator,
    names.map((name) => requests[name]),
  );
  if (!isCurrent()) return null;
  const targetFields = { 'target.epsilon': fields.targetEpsilon, 'target.delta': fields.targetDelta };
  const recordFields = {
    guarantee: { 'guarantee.epsilon': fields.epsilon, 'guarantee.delta': fields.delta },
    laplace: { 'mechanism.scale': fields.scale, 'mechanism.sensitivity': fields.sensitivity },
    gaussian: { 'mechanism.sigma': fields.sigma, 'mechanism.sensitivity': fields.sensitivity },
  };
  const rows = names.map((name, i) => ({
    id: `largest-${name}`,
    label: kLabels[name],
    formula: kFormula,
    response: answers[i],
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
    example: own[name === 'guarantee' ? 'guarantee' : name] ? undefined : 'example values, not set by you',
    fields: { ...targetFields, ...recordFields[name] },
  }));
  const within = `ε ≤ ${formatNumber(target.epsilon)}${target.delta > 0 ? `, δ ≤ ${formatNumber(target.delta)}` : ''}`;
  results.replaceChildren(methodTable({ caption: `The largest group within ${within}`, rows, errors }));
  plots.replaceChildren();
  const responses = Object.fromEntries(names.map((name, i) => [name, answers[i]]));
  const chosen = names.filter((name) => own[name]);
  const shown = (chosen.length ? chosen : ['guarantee']).filter((name) => responses[name].ok);
  if (shown.length === 0) return ['No answer: check the marked fields.'];
  const parts = shown.map(
    (name) => `${kLabels[name].split(' (')[0].toLowerCase()}: ${largestText(responses[name].result)}`,
  );
  return [`${chosen.length ? '' : 'Example: '}The largest group within ${within}: ${parts.join('; ')}.`];
}
