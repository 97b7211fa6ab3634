// The answer of a "largest value for a target" question (ops 'dpsgd' and 'compose' with `unknown`):
// the value in large type with the bound at it, and a table of that bound (within the target) and
// the bound one step beyond (over it). The core answers by bisection on its sound forward bound and
// evaluates both; this module only renders them, for every section that asks such a question.
import { h } from './dom.js';
import { formatNumber, tidyNumbers } from './format.js';
import { guaranteeElement, methodTable } from './results.js';

// Each unknown: its name in a caption and in a row label.
const kNames = {
  steps: ['steps', 'steps'],
  epochs: ['epochs', 'epochs'],
  sampling_rate: ['sampling rate q', 'sampling rate'],
  batch_size: ['batch size B', 'batch size'],
  group_size: ['group size k', 'group size'],
  count: ['number of releases', 'number of releases'],
};

/** "12,345 steps", "720 releases", "q = 0.0123", "k = 7": the value of the unknown as a person reads it. */
export function valueText(unknown, value) {
  if (unknown === 'steps' || unknown === 'epochs')
    return `${value.toLocaleString('en-US')} ${value === 1 ? unknown.slice(0, -1) : unknown}`;
  if (unknown === 'count') return `${value.toLocaleString('en-US')} release${value === 1 ? '' : 's'}`;
  const symbol = { sampling_rate: 'q', batch_size: 'B', group_size: 'k' }[unknown];
  // The sampling rate is the short decimal the core evaluated: shown exactly, never rounded up.
  return `${symbol} = ${unknown === 'sampling_rate' ? String(value) : value.toLocaleString('en-US')}`;
}

/** A bound at δ = 0 is pure ε-DP: shown as ε alone, not "at δ = 0". */
export const boundElement = (guarantee, options = {}) =>
  guarantee.type === 'approx' && guarantee.delta === 0
    ? guaranteeElement({ type: 'pure', epsilon: guarantee.epsilon }, options)
    : guaranteeElement(guarantee, { deltaIsGiven: true, ...options });

/** "At most 720 releases" or, when the whole range meets the target, "Every value up to 2^53 releases". */
export const solvedValueText = (result) =>
  `${result.all_meet ? 'Every value up to' : 'At most'} ${valueText(result.unknown, result[result.unknown])}`;

/**
 * The answer in large type, and the table of the answer and the value one step beyond. `answer`
 * names the section's answer block (its data-answer); `formulas` ({ solved, beyond }: TeX) define the
 * answer by the section's own bound; `label` names the answer's row by the bound it rests on.
 */
export function solvedElements(result, { fields, errors, answer, formulas, label }) {
  const { unknown } = result;
  const value = result[unknown];
  const parts = [
    h(
      'div',
      { class: 'answer-solved', dataset: { unknown, value: String(value) } },
      result.all_meet
        ? `every value up to ${valueText(unknown, value)} meets the target`
        : `at most ${valueText(unknown, value)}`,
    ),
    h('div', { class: 'answer-bound' }, boundElement(result.guarantee)),
  ];
  if (result.note) parts.push(h('div', { class: 'note' }, result.note));
  if (result.steps_note) parts.push(h('div', { class: 'note' }, tidyNumbers(result.steps_note)));
  const rows = [
    {
      id: 'solved',
      label: label ?? `Largest ${kNames[unknown][1]} (tight upper bound)`,
      formula: formulas.solved,
      fields,
      response: { ok: true, result },
      render: (r) => boundElement(r.guarantee),
      note: () => `${valueText(unknown, value)}, composed back: within the target`,
    },
  ];
  if (result.beyond) {
    const beyond = result.beyond;
    rows.push({
      id: 'beyond',
      label: 'One step beyond',
      formula: formulas.beyond,
      fields,
      response: beyond.guarantee
        ? { ok: true, result: { ...beyond, method: result.method, citation: result.citation } }
        : { ok: false, error: { code: beyond.error.code, field: '', message: beyond.error.message } },
      render: (r) => boundElement(r.guarantee, { vacuous: r.vacuous }),
      note: () =>
        `${valueText(unknown, beyond[unknown])}: exceeds the target ε = ${formatNumber(result.target.epsilon)}`,
    });
  }
  return [
    h('div', { class: 'big-answer', dataset: { answer } }, parts),
    methodTable({ caption: `The ${kNames[unknown][0]} that meets the target`, rows, errors }),
  ];
}
