// Budget split: the largest per-step (ε₀, δ₀) whose composition over k steps meets a total target,
// for every method. A per-step budget is something you spend, so it is rounded down.
import { h, readNumber } from './dom.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { formatNumber, parseNumber } from './format.js';
import { givenNumber, methodWords, paperNumber } from './headline.js';

const splitMethods = [
  { id: 'basic', label: 'Basic composition', method: 'basic' },
  {
    id: 'advanced-drv',
    label: 'Advanced composition (Dwork–Rothblum–Vadhan)',
    method: 'advanced',
    variant: 'dwork_rothblum_vadhan',
  },
  { id: 'advanced-kov', label: 'Advanced composition (Kairouz–Oh–Viswanath)', method: 'advanced', variant: 'kairouz' },
  { id: 'optimal', label: 'Optimal composition (exact)', method: 'optimal' },
  { id: 'zcdp', label: 'zCDP composition', method: 'zcdp' },
];

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

async function updateSplit({ calculator, input, isCurrent, results, errors, summary, explain }) {
  const fields = { epsilon: input('epsilon'), delta: input('delta'), count: input('count') };
  const target = { epsilon: readNumber(fields.epsilon), delta: readNumber(fields.delta) };
  const count = readNumber(fields.count);
  const responses = await askAll(
    calculator,
    splitMethods.map(({ method, variant }) =>
      variant ? { op: 'split', method, variant, target, count } : { op: 'split', method, target, count },
    ),
  );
  if (!isCurrent()) return;
  const fieldMap = { 'target.epsilon': fields.epsilon, 'target.delta': fields.delta, count: fields.count };
  const rows = splitMethods.map((method, i) => ({
    id: method.id,
    label: method.label,
    formula: formulas.split,
    response: responses[i],
    render: renderPerItem,
    note: noteOf,
    fields: fieldMap,
  }));
  results.replaceChildren(
    methodTable({ caption: `Per-step budget for ${fields.count.value.trim()} steps (rounded down)`, rows, errors }),
  );
  summary(...headlineOf(responses, fields));
  // Whatever the split, the whole meets the target: the panel explains that guarantee.
  const guarantee = target.delta === 0 ? { type: 'pure', epsilon: target.epsilon } : { type: 'approx', ...target };
  if (responses.some((response) => response.ok)) explain({ of: { guarantee } });
}

/**
 * The headline: the largest per-step budget (ε₀, and δ₀ when the target has a δ) among the methods,
 * for the person's total (ε, δ) and number of steps; rounded down (a budget is spent). Returns
 * [text, { cite }].
 */
function headlineOf(responses, fields) {
  const answers = responses
    .map((response, i) => ({ response, method: splitMethods[i] }))
    .filter(({ response }) => response.ok);
  if (answers.length === 0) return ['No answer: check the marked fields.'];
  const best = answers.reduce((a, b) =>
    b.response.result.per_item.epsilon > a.response.result.per_item.epsilon ? b : a,
  );
  const { result } = best.response;
  const given = (input) => {
    const number = parseNumber(input.value);
    return Number.isNaN(number) ? input.value.trim() : givenNumber(number);
  };
  const targetDelta = parseNumber(fields.delta.value);
  const total = targetDelta > 0 ? `(${given(fields.epsilon)}, ${given(fields.delta)})` : given(fields.epsilon);
  const steps = fields.count.value.trim();
  const perStep =
    typeof result.per_item.delta === 'number' && result.per_item.delta > 0
      ? `ε₀ = ${formatNumber(result.per_item.epsilon, 'down')}, δ₀ = ${formatNumber(result.per_item.delta, 'down')}`
      : `ε₀ = ${formatNumber(result.per_item.epsilon, 'down')}`;
  const paperStep =
    typeof result.per_item.delta === 'number' && result.per_item.delta > 0
      ? `(${paperNumber(result.per_item.epsilon, 'down')}, ${paperNumber(result.per_item.delta, 'down')})-DP`
      : `${paperNumber(result.per_item.epsilon, 'down')}-DP`;
  return [
    `For a total ${total}-DP over ${steps} steps: each step may be ${perStep}, by ${methodWords(best.method.label)}.`,
    {
      cite:
        `${steps} steps, each ${paperStep}, compose to at most ${total}-DP, ` +
        `by ${methodWords(result.method)} (${result.citation}).`,
    },
  ];
}

export { updateSplit };
