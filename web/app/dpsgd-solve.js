// The DP-SGD section's "largest value for a target ε" questions (op 'dpsgd' with `unknown`): the most
// steps or epochs, the largest sampling rate or batch size, the largest group. The core answers by
// bisection on the tight upper bound and reports the bound at the answer and one step beyond; this
// module only renders them.
import { h } from './dom.js';
import { formatNumber } from './format.js';
import { boundText } from './headline.js';
import { guaranteeElement, methodTable } from './results.js';

/** The question modes of the section's "Question" selector that solve for an unknown. */
export const kSolveModes = {
  most_steps: 'most steps for a target ε',
  largest_rate: 'largest batch or rate for a target ε',
  largest_group: 'largest group for a target ε',
};

/** The request's unknown for `mode` ('most_steps' → 'steps' or 'epochs', …), or null. */
export function unknownOf(mode, { duration, sampling }) {
  if (mode === 'most_steps') return duration === 'epochs' ? 'epochs' : 'steps';
  if (mode === 'largest_rate') return sampling === 'poisson' ? 'sampling_rate' : 'batch_size';
  if (mode === 'largest_group') return 'group_size';
  return null;
}

const kFormulas = {
  solved: String.raw`x^\star = \max\{x : \varepsilon_{\mathrm{PLD}}(x) \le \varepsilon_{\text{target}}\}`,
  beyond: String.raw`\varepsilon_{\mathrm{PLD}}(x^\star + 1) > \varepsilon_{\text{target}}`,
};

const kNames = {
  steps: ['steps', 'steps'],
  epochs: ['epochs', 'epochs'],
  sampling_rate: ['sampling rate q', 'sampling rate'],
  batch_size: ['batch size B', 'batch size'],
  group_size: ['group size k', 'group size'],
};

/** "12,345 steps", "q = 0.0123", "k = 7": the value of the unknown as a person reads it. */
function valueText(unknown, value) {
  if (unknown === 'steps' || unknown === 'epochs') return `${value.toLocaleString('en-US')} ${unknown}`;
  const symbol = { sampling_rate: 'q', batch_size: 'B', group_size: 'k' }[unknown];
  // The sampling rate is the short decimal the core evaluated: shown exactly, never rounded up.
  return `${symbol} = ${unknown === 'sampling_rate' ? String(value) : value.toLocaleString('en-US')}`;
}

/** The answer in large type, and the table of the answer and the value one step beyond. */
export function solvedElements(result, fields, errors) {
  const { unknown } = result;
  const answer = result[unknown];
  const parts = [
    h(
      'div',
      { class: 'answer-solved', dataset: { unknown, value: String(answer) } },
      result.all_meet
        ? `every value up to ${valueText(unknown, answer)} meets the target`
        : `at most ${valueText(unknown, answer)}`,
    ),
    h('div', { class: 'answer-bound' }, guaranteeElement(result.guarantee, { deltaIsGiven: true })),
  ];
  if (result.note) parts.push(h('div', { class: 'note' }, result.note));
  if (result.steps_note) parts.push(h('div', { class: 'note' }, result.steps_note));
  const rows = [
    {
      id: 'solved',
      label: `Largest ${kNames[unknown][1]} (tight upper bound)`,
      formula: kFormulas.solved,
      fields,
      response: { ok: true, result },
      render: (r) => guaranteeElement(r.guarantee, { deltaIsGiven: true }),
      note: () => `${valueText(unknown, answer)}, composed back: within the target`,
    },
  ];
  if (result.beyond) {
    const beyond = result.beyond;
    rows.push({
      id: 'beyond',
      label: 'One step beyond',
      formula: kFormulas.beyond,
      fields,
      response: beyond.guarantee
        ? { ok: true, result: { ...beyond, method: result.method, citation: result.citation } }
        : { ok: false, error: { code: beyond.error.code, field: '', message: beyond.error.message } },
      render: (r) => guaranteeElement(r.guarantee, { deltaIsGiven: true, vacuous: r.vacuous }),
      note: () =>
        `${valueText(unknown, beyond[unknown])}: exceeds the target ε = ${formatNumber(result.target.epsilon)}`,
    });
  }
  return [
    h('div', { class: 'big-answer', dataset: { answer: 'dpsgd' } }, parts),
    methodTable({ caption: `The ${kNames[unknown][0]} that meets the target`, rows, errors }),
  ];
}

/** The headline sentence of a solved question. */
export function solvedHeadline(result, { k, sampling }) {
  const { unknown } = result;
  const within = `within ${boundText(result.target, { deltaIsGiven: true })}`;
  const group = unknown === 'group_size' ? 'a group' : `a group of ${k} example${k === 1 ? '' : 's'}`;
  const how =
    sampling === 'poisson'
      ? 'Poisson sampling, tight accounting'
      : 'fixed-size batches, assuming the worst-case property (not proven)';
  const value = `${result.all_meet ? 'Every value up to' : 'At most'} ${valueText(unknown, result[unknown])}`;
  return `${value}: ${group} stays ${within} at noise multiplier σ = ${formatNumber(result.noise_multiplier)} (${how}).`;
}
