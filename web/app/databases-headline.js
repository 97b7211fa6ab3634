// The Several databases section's headline and its sentence for a paper: for the person's adversary
// (worst case: unbounded and bounded neighbours; or the uninformative prior), for pure releases the
// pure answers first (basic composition), then the chosen method's at the target δ (said to be an
// example δ when the person did not set it).
import { formatNumber } from './format.js';
import { boundText, citeSentence, epsilonBracket, methodWords, paperGuarantee, proof } from './headline.js';

/** Who the guarantee is for, in words: "A person in at most 365 of the 1,000 databases". */
function personWords(inputs, total, uninformative) {
  const count = total.toLocaleString('en-US');
  if (uninformative)
    return `Membership in any of the ${count} databases, against an adversary with an uninformative prior`;
  if (inputs.constraint === 'at_most') return `A person in at most ${inputs.m.trim()} of the ${count} databases`;
  if (inputs.constraint === 'exactly_one') return `A person in exactly one of the ${count} databases`;
  if (inputs.constraint === 'families') return `A person in the databases of one family of classes (of ${count})`;
  return `A person in any of the ${count} databases`;
}

/** A result's bound as the headline says it ("ε ≤ 365", "ρ ≤ 2") and the δ it holds at (0 when pure). */
function boundOf(response) {
  if (!response?.ok || response.result.vacuous) return null;
  const { guarantee } = response.result;
  if (guarantee.type === 'zcdp') return { text: boundText(guarantee), delta: 0 };
  return { text: boundText({ type: 'pure', epsilon: guarantee.epsilon }), delta: guarantee.delta ?? 0 };
}

/** "ε ≤ 365 (unbounded), ε ≤ 730 (bounded)", after "at δ = 10⁻⁵: " when the bounds hold at one δ. */
function listed(responses, cases, keyOf) {
  const bounds = cases.map((item) => ({ ...boundOf(responses[keyOf(item)]), words: item.words }));
  const shown = bounds.filter((bound) => bound.text);
  const deltas = [...new Set(shown.map((bound) => bound.delta))];
  const at =
    deltas.length === 1 && deltas[0] > 0 ? `at δ = ${formatNumber(deltas[0], 'down').replace(/^1 × /, '')}: ` : '';
  const text = shown
    .map(
      (bound) =>
        `${bound.text}${!at && bound.delta > 0 ? ` at δ = ${formatNumber(bound.delta, 'down')}` : ''} (${bound.words})`,
    )
    .join(', ');
  return text ? `${at}${text}` : '';
}

/**
 * The headline of the answered rows `answers` (by id) for `inputs`: `total` databases, `pure`
 * releases, `deltaSet` (the person set the target δ). Returns [text, { cite }].
 */
export function databasesHeadline(answers, { inputs, total, pure, deltaSet }) {
  const responses = Object.fromEntries(Object.entries(answers).map(([id, item]) => [id, item.response]));
  const uninformative = inputs.adversary === 'uninformative';
  const cases = uninformative
    ? [{ key: 'uninformative', pureKey: 'pureUninformative', words: 'in none vs. in at least one' }]
    : [
        { key: 'unbounded', pureKey: 'pureUnbounded', words: 'unbounded' },
        { key: 'bounded', pureKey: 'pureBounded', words: 'bounded' },
      ];
  const pureFirst = pure && inputs.method !== 'basic';
  const parts = [];
  const pureText = pureFirst ? listed(responses, cases, (item) => item.pureKey) : '';
  if (pureText) parts.push(`pure ${pureText}, by basic composition`);
  const chosenText = listed(responses, cases, (item) => item.key);
  if (chosenText) {
    const method = methodWords(responses[cases[0].key].result?.method ?? '');
    const example = pureFirst && !deltaSet ? ' (at the example δ, not set by you)' : '';
    parts.push(`${chosenText}, by ${method}${example}`);
  }
  if (parts.length === 0) return ['No guarantee for these inputs: see the table.'];
  const first = [cases[0].pureKey, cases[0].key]
    .map((key) => responses[key])
    .find((response) => response?.ok && !response.result.vacuous);
  const person = personWords(inputs, total, uninformative);
  const cite = first
    ? citeSentence({
        subject: `For ${person.replace(/^A /, 'a ').replace(/^Membership/, 'membership')}, the releases`,
        verb: 'satisfy',
        guarantee: paperGuarantee(first.result.guarantee, { deltaIsGiven: true }),
        scope: uninformative ? '' : `(${cases[0].words} neighbours)`,
        method: methodWords(first.result.method),
        citation: first.result.citation,
      })
    : '';
  // A numeric method's answer comes with its bracket (the first case's, as the sentence).
  const numeric = responses[cases[0].key];
  const bracket =
    numeric?.ok && typeof numeric.result.epsilon_lower === 'number'
      ? epsilonBracket(numeric.result.epsilon_lower, numeric.result.guarantee.epsilon)
      : undefined;
  return [
    `${person}: ${parts.join('; ')}.`,
    { cite, result: first?.result, proof: proof.proven('Proven upper bounds over every footprint allowed'), bracket },
  ];
}
