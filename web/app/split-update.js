// Budget split on the page: the largest per-step (ε₀, δ₀) whose composition over k steps meets a
// total target, for every method (split-requests.js). A per-step budget is something you spend, so
// it is rounded down.
import { h } from './dom.js';
import { formulas } from './formula.js';
import { guaranteeElement, inputsOf, methodTable } from './results.js';
import { answerAll } from './ask.js';
import { formatNumber, parseNumber } from './format.js';
import { givenNumber, methodWords, paperNumber, proof } from './headline.js';
import { requests, targetOf } from './split-requests.js';

function renderPerItem(result) {
  const perItem = result.per_item;
  const guarantee =
    typeof perItem.delta === 'number' ? { type: 'approx', ...perItem } : { type: 'pure', epsilon: perItem.epsilon };
  return h('span', {}, 'per step ', guaranteeElement(guarantee, { direction: 'down' }));
}

function noteOf(result) {
  const notes = [];
  if (result.achieved) {
    notes.push(
      `composes back to ε ≤ ${formatNumber(result.achieved.epsilon)}, δ ≤ ${formatNumber(result.achieved.delta)}`,
    );
  }
  if (typeof result.delta_slack === 'number')
    notes.push(`δ′ = ${formatNumber(result.delta_slack, 'down')} kept as slack`);
  return notes.join('; ');
}

async function updateSplit({ calculator, form, inputs, isCurrent, results, errors, summary, explain }) {
  const answered = await answerAll(calculator, requests(inputs));
  if (!isCurrent()) return;
  const rows = answered.map((item) => ({
    ...item,
    formula: formulas.split,
    render: renderPerItem,
    note: noteOf,
    fields: inputsOf(form, item.fields, item.request),
  }));
  results.replaceChildren(
    methodTable({ caption: `Per-step budget for ${inputs.count.trim()} steps (rounded down)`, rows, errors }),
  );
  summary(...headlineOf(answered, inputs));
  // Whatever the split, the whole meets the target: the panel explains that guarantee.
  const target = targetOf(inputs);
  const guarantee = target.delta === 0 ? { type: 'pure', epsilon: target.epsilon } : { type: 'approx', ...target };
  if (answered.some((item) => item.response.ok)) explain({ of: { guarantee } });
}

/**
 * The headline: the largest per-step budget (ε₀, and δ₀ when the target has a δ) among the methods,
 * for the person's total (ε, δ) and number of steps; rounded down (a budget is spent). Returns
 * [text, { cite }].
 */
function headlineOf(answered, inputs) {
  const answers = answered.filter(({ response }) => response.ok);
  if (answers.length === 0) return ['No answer: check the marked fields.'];
  const best = answers.reduce((a, b) =>
    b.response.result.per_item.epsilon > a.response.result.per_item.epsilon ? b : a,
  );
  const { result } = best.response;
  const given = (text) => {
    const number = parseNumber(text);
    return Number.isNaN(number) ? text.trim() : givenNumber(number);
  };
  const targetDelta = parseNumber(inputs.delta);
  const total = targetDelta > 0 ? `(${given(inputs.epsilon)}, ${given(inputs.delta)})` : given(inputs.epsilon);
  const steps = inputs.count.trim();
  const perStep =
    typeof result.per_item.delta === 'number' && result.per_item.delta > 0
      ? `ε₀ = ${formatNumber(result.per_item.epsilon, 'down')}, δ₀ = ${formatNumber(result.per_item.delta, 'down')}`
      : `ε₀ = ${formatNumber(result.per_item.epsilon, 'down')}`;
  const paperStep =
    typeof result.per_item.delta === 'number' && result.per_item.delta > 0
      ? `(${paperNumber(result.per_item.epsilon, 'down')}, ${paperNumber(result.per_item.delta, 'down')})-DP`
      : `${paperNumber(result.per_item.epsilon, 'down')}-DP`;
  return [
    `For a total ${total}-DP over ${steps} steps: each step may be ${perStep}, by ${methodWords(best.label)}.`,
    {
      cite:
        `${steps} steps, each ${paperStep}, compose to at most ${total}-DP, ` +
        `by ${methodWords(result.method)} (${result.citation}).`,
      result,
      proof: proof.proven('Proven: each step at this budget composes back within the total'),
    },
  ];
}

export { updateSplit };
