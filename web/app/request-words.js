// A request in words, for the sentence "Cite this result" (export.js): every value of the request
// whose answer the sentence states, by the name the page gives it, so that a reader can compute the
// number again without the page (and the permalink beside it reproduces it on the page). Nothing
// is left out: a field this file has no name for is said with its own name in words. No DOM here.
import { givenNumber } from './headline.js';

// Fields as the page names them; a symbol after the name where the page writes one.
const kFieldNames = {
  k: 'group size k',
  group_size: 'group size k',
  epsilon: 'ε',
  delta: 'δ',
  rho: 'ρ',
  sigma: 'σ',
  scale: 'scale b',
  sensitivity: 'sensitivity Δ',
  count: 'count',
  method: 'method',
  variant: 'variant',
  relation: 'neighbouring relation',
  sampling: 'batch sampling',
  dataset_size: 'dataset size N',
  batch_size: 'batch size B',
  sampling_rate: 'sampling rate q',
  rate: 'sampling rate q',
  sample_size: 'sample size m',
  noise_multiplier: 'noise multiplier σ',
  noise_parameter: 'noise parameter p',
  num_buckets: 'number of buckets',
  epochs: 'epochs',
  steps: 'steps',
  target: 'target',
  items: 'releases',
  unknown: 'solved for',
  conversion: 'conversion',
  to: 'converted to',
  neighbours: 'neighbouring databases',
  adversary: 'adversary',
  constraint: 'participation',
  m: 'at most m',
  queries: 'queries',
  relative_error: 'relative error',
  confidence: 'confidence',
  true_positives: 'true positives',
  false_positives: 'false positives',
  positives: 'positives',
  negatives: 'negatives',
  claim: 'claim',
  evidence: 'evidence',
  shifts: 'shifts',
  weights: 'weights',
  adaptive: 'adaptive',
  orders: 'orders α',
  epsilons: 'ε(α)',
  repetitions: 'repetitions',
  phases: 'phases',
  max_batch_size: 'largest batch C',
  discretization: 'discretization',
  interval: 'interval',
  relative_accuracy: 'relative accuracy',
  reshuffle: 're-shuffled each epoch',
  bands: 'bands b',
};

// Choices as the page's selects and tables name them.
const kChoiceNames = {
  add_remove: 'one record added or removed',
  substitute: 'one record replaced',
  zero_out: 'one record zeroed out',
  basic: 'basic composition',
  parallel: 'parallel composition',
  advanced: 'advanced composition',
  optimal: 'optimal composition',
  zcdp: 'zCDP',
  pld: 'PLD (numeric)',
  rdp: 'Rényi DP',
  analytic: 'analytic Gaussian',
  pure: 'pure DP',
  approx: 'approximate DP',
  poisson: 'Poisson sampling',
  fixed_batch: 'fixed-size batches',
  truncated_poisson: 'truncated Poisson sampling',
  shuffle: 'shuffling',
  balls_and_bins: 'balls-and-bins batches',
  cyclic_poisson: 'cyclic Poisson sampling',
  dwork_rothblum_vadhan: 'Dwork, Rothblum, Vadhan 2010',
  kairouz: 'Kairouz, Oh, Viswanath 2015',
  bun_steinke: 'Bun & Steinke 2016',
  canonne_kamath_steinke: 'Canonne, Kamath, Steinke 2020',
  unbounded: 'unbounded',
  bounded: 'bounded',
  uninformative: 'uninformative prior',
  none: 'no limit',
  at_most: 'at most m databases',
  // The mechanisms, by the catalog's titles.
  laplace: 'Laplace mechanism',
  gaussian: 'Gaussian mechanism',
  poisson_subsampled: 'Poisson-subsampled mechanism',
  gaussian_mixture: 'Gaussian mixture',
  randomized_response: 'randomized response',
  discrete_laplace: 'discrete Laplace mechanism',
  discrete_gaussian: 'discrete Gaussian mechanism',
  permute_and_flip: 'permute-and-flip mechanism',
  tree_aggregation: 'tree aggregation (DP-FTRL)',
  exponential: 'exponential mechanism',
  sampled_without_replacement: 'sampled without replacement',
};

// Fields that do not decide the number: the op (the section says what it computes) and the options
// of the attacker panel's trade-off, which a request asks for beside its answer.
const kSkipped = new Set(['op', 'explain']);

/** The name of field `key` in words. */
export const fieldName = (key) => kFieldNames[key] ?? key.replaceAll('_', ' ');

/** A choice (a string value) in words; a field's name where the value names a field (the unknown solved for). */
export const choiceWords = (value) => kChoiceNames[value] ?? kFieldNames[value] ?? value.replaceAll('_', ' ');

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A guarantee object: "approximate DP with ε = 0.5, δ = 10⁻⁶", "zCDP with ρ = 0.5". */
function guaranteeWords(guarantee) {
  const rest = fieldsWords(guarantee, ['type']);
  return guarantee.type === undefined ? rest : `${choiceWords(String(guarantee.type))} with ${rest}`;
}

/** A mechanism object: "Gaussian mechanism (σ = 2, sensitivity Δ = 1)". */
function mechanismWords(mechanism) {
  const name = choiceWords(String(mechanism.type));
  const rest = fieldsWords(mechanism, ['type']);
  return rest ? `${name} (${rest})` : name;
}

/** One item of a ledger or of a list of databases: "12 × discrete Gaussian mechanism (σ = 5, …)". */
function itemWords(item) {
  if (!isPlainObject(item)) return valueWords(item);
  const { count, ...rest } = item;
  const body = fieldsWords(rest);
  return count === undefined ? body : `${givenNumber(count)} × ${body}`;
}

/** A value in words: numbers as the page writes them, choices by their names, objects field by field. */
function valueWords(value, key = '') {
  if (typeof value === 'number') return givenNumber(value);
  if (typeof value === 'string') return choiceWords(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    if (value.every((element) => typeof element !== 'object')) return value.map((v) => valueWords(v)).join(', ');
    return value.map(itemWords).join('; ');
  }
  if (!isPlainObject(value)) return String(value);
  if (
    key === 'guarantee' ||
    key === 'claim' ||
    (key === '' && 'type' in value && /^(pure|approx|zcdp|rdp)$/.test(value.type))
  )
    return 'type' in value ? guaranteeWords(value) : fieldsWords(value);
  if (key === 'mechanism') return mechanismWords(value);
  if (key === 'items' || key === 'databases') return itemWords(value);
  return fieldsWords(value);
}

/**
 * One field: "δ = 10⁻⁵", "neighbouring relation: one record zeroed out", "approximate DP with …", a
 * mechanism by its name, an object's fields in parentheses, and its kind (`type`, `kind`) alone.
 */
function fieldWords(key, value) {
  if (key === 'guarantee' || key === 'mechanism') return valueWords(value, key);
  if ((key === 'type' || key === 'kind') && typeof value === 'string') return choiceWords(value);
  if (isPlainObject(value) && key !== 'claim') return `${fieldName(key)} (${valueWords(value, key)})`;
  const words = valueWords(value, key);
  const separator = typeof value === 'number' || (Array.isArray(value) && typeof value[0] === 'number') ? ' = ' : ': ';
  return `${fieldName(key)}${separator}${words}`;
}

/** The fields of `object` in words, in its order, except `skip`. */
function fieldsWords(object, skip = []) {
  return Object.entries(object)
    .filter(([key, value]) => !kSkipped.has(key) && !skip.includes(key) && value !== undefined)
    .map(([key, value]) => fieldWords(key, value))
    .join(', ');
}

/**
 * Every value of `request` that decides its answer, in words: "group size k = 8, (ε = 1, δ = 10⁻⁶)-DP",
 * "group size k = 4, δ = 10⁻⁵, batch sampling: Poisson sampling, neighbouring relation: one record
 * zeroed out, dataset size N = 60000, batch size B = 256, epochs = 60, noise multiplier σ = 1.1".
 */
export const requestWords = (request) => fieldsWords(request);
