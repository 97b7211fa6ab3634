// The DP-SGD section's side-by-side of batch samplers (op 'dpsgd_samplers'): the same training
// under every sampler, each row's ε (a proven upper bound, or "between" a lower bound an attack
// reaches and the upper bound no proof improves), its status in words, its method and citation; the
// sentence that sets the person's own loop against Poisson sampling; and the status of an answer in
// the words the headline uses. Every number is the core's; the table only words it.
import { h } from './dom.js';
import { formatNumber } from './format.js';
import { citeElement } from './results.js';
import { keysOf } from './citation-keys.js';
import { kLoops, loopOfRow } from './dpsgd-requests.js';

const upperText = (result) => formatNumber(result.guarantee.epsilon, 'up');
const lowerText = (result) => formatNumber(result.epsilon_lower, 'down');

/** What each loop does, as the sentence about the person's loop says it. */
const kLoopVerbs = {
  poisson: 'samples each example independently (Poisson sampling)',
  shuffle: 're-shuffles each epoch',
  same_order: 'walks the data in the same order every epoch',
  truncated_poisson: 'caps Poisson batches at a largest size',
  balls_and_bins: 'puts every example in one random step of each epoch',
  cyclic_poisson: 'uses the bands of the data in turn',
  fixed_batch: 'draws fixed-size batches without replacement',
};

/** How the libraries people train with name each loop (shown under the row's title). */
const kKnownAs = {
  poisson: 'Opacus poisson_sampling=True',
  shuffle: 'PyTorch DataLoader(shuffle=True)',
  same_order: 'DataLoader(shuffle=False)',
  truncated_poisson: 'dp_accounting TruncatedSubsampledGaussianDpEvent',
  balls_and_bins: 'JAX Privacy balls-and-bins',
  cyclic_poisson: 'JAX Privacy banded matrix factorization',
};

/**
 * An answer's status (op 'dpsgd' or a row of op 'dpsgd_samplers') in words: "proven"; "no proof
 * gives less than b; an attack already reaches a"; "not proven"; or the row's note when it has no bound.
 */
export function statusWords(result) {
  if (result.status === 'tight') return 'proven';
  if (result.status === 'bracket')
    return `no proof gives less than ${upperText(result)}; an attack already reaches ${lowerText(result)}`;
  if (result.status === 'not_proven') return `not proven (an attack already reaches ${lowerText(result)})`;
  return result.note;
}

/** An answer's ε: "ε ≤ b" when proven and tight, else "between a and b" (the upper bound and a lower bound an attack reaches). */
function epsilonElement(result) {
  if (!result.guarantee) return h('span', { class: 'not-applicable' }, 'no bound');
  const dataset = { epsilon: String(result.guarantee.epsilon) };
  // The δ is the column's.
  if (result.status === 'tight') return h('span', { class: 'bound', dataset }, `ε ≤ ${upperText(result)}`);
  return h('span', { class: 'bound', dataset }, [
    h('span', { class: 'part' }, `between ${lowerText(result)}`),
    ' ',
    h('span', { class: 'part' }, `and ${upperText(result)}`),
  ]);
}

/** The method and citation of a row, and its lower bound's where that is another's. */
function methodElement(row) {
  if (!row.method) return '';
  const part = (label, result) =>
    h('div', {}, `${label}${result.method} (`, citeElement(result.citation, keysOf(result.citation_key)), ')');
  return h('div', {}, part('', row), row.lower_bound ? part('Lower bound: ', row.lower_bound) : null);
}

/** One row: the sampler as people know it (the person's own loop marked), its ε, status, method. */
function samplerRow(row, chosen) {
  const loop = loopOfRow(row);
  const mine = loop === chosen;
  const dataset = {
    row: loop,
    status: row.status,
    ...(row.guarantee ? { upper: String(row.guarantee.epsilon) } : {}),
    ...(row.epsilon_lower !== null ? { lower: String(row.epsilon_lower) } : {}),
    ...(mine ? { chosen: 'true' } : {}),
  };
  const title = row.sampling === 'shuffle' ? `Shuffling, ${kLoops[loop].words}` : row.title;
  const status = h('div', {}, statusWords(row));
  const why = row.guarantee ? h('details', {}, h('summary', {}, 'Why'), h('p', {}, row.note)) : null;
  return h(
    'tr',
    { dataset, class: mine ? 'chosen' : undefined },
    h(
      'th',
      { scope: 'row' },
      h('span', { class: 'row-label' }, title),
      kKnownAs[loop] ? h('span', { class: 'method' }, h('code', {}, kKnownAs[loop])) : null,
      mine ? h('span', { class: 'method' }, h('strong', {}, 'your loop')) : null,
    ),
    h('td', { class: 'answer', dataset: { label: 'ε' } }, epsilonElement(row)),
    h('td', { dataset: { label: 'What is proven' } }, status, why),
    h('td', { class: 'citation', dataset: { label: 'Method' } }, methodElement(row)),
  );
}

/** The table of op 'dpsgd_samplers' `result`, the row of the person's loop `chosen` (a kLoops key) marked. */
export function samplersTable(result, { chosen, caption }) {
  return h(
    'div',
    { class: 'table-wrap', dataset: { samplers: '' } },
    h(
      'table',
      { class: 'methods samplers' },
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Batches drawn by', `ε at δ = ${formatNumber(result.delta, 'down')}`, 'What is proven', 'Method'].map(
            (text) => h('th', { scope: 'col' }, text),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        result.rows.map((row) => samplerRow(row, chosen)),
      ),
    ),
  );
}

/** A row's ε in a sentence: "ε ≤ b (proven)", "ε between a and b (…)", or its note. */
function rowPhrase(row) {
  if (!row.guarantee) return row.note;
  if (row.status === 'tight') return `its ε ≤ ${upperText(row)} is proven`;
  const upper = row.status === 'not_proven' ? 'an upper bound not proven' : 'the best proof';
  return `its ε lies between ${lowerText(row)} (an attack reaches it) and ${upperText(row)} (${upper})`;
}

/**
 * One sentence for the person's loop `chosen` against Poisson sampling, from the table's rows:
 * "Your loop re-shuffles each epoch: the Poisson ε 1.1004 does not apply; its ε lies between …".
 */
export function chosenSentence(result, chosen) {
  const mine = result.rows.find((row) => loopOfRow(row) === chosen);
  if (!mine) return '';
  const poisson = result.rows.find((row) => row.sampling === 'poisson');
  const loop = `Your loop ${kLoopVerbs[chosen]}`;
  if (chosen === 'poisson') return `${loop}: the Poisson ε is its own, ${rowPhrase(mine)}.`;
  const against = poisson?.guarantee ? `the Poisson ε ${upperText(poisson)} does not apply; ` : '';
  return `${loop}: ${against}${rowPhrase(mine)}.`;
}
