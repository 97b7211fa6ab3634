// The DP-SGD section's requests, shared by the page (dpsgd-update.js) and the <dp-calculator>
// element: op 'dpsgd' for the training the inputs describe, drawn by the sampler of the person's
// training loop (its guarantee for a group of k examples, the noise multiplier for a target ε, or
// the largest value of one input for it), the same training under every sampler side by side (op
// 'dpsgd_samplers'), and for the samplers whose step is one Gaussian mixture (Poisson, fixed
// batches) the worst-case pair of one step (op 'dpsgd_pair') and Sommer's figures: ε vs steps for
// k = 1…5 and ε vs k for several noise multipliers, at the steps and noise of the answer.
import { parseNumber } from './format.js';
import { rangeOf } from './range.js';

export const kGroupsRange = { max: 64, points: 8, log: false };
const kStepsCurveK = 5; // Sommer's figure 2: k = 1…5
const kStepsPoints = 5; // steps values per curve
const kSigmaFactors = [1, 2, 4]; // Sommer's figure 3: several noise multipliers

/**
 * The training loops of the section's "How does your training loop draw batches?" (its `sampling`
 * input) as op 'dpsgd' samplers: `sampling`, `reshuffle` for shuffling, and the words the headline
 * and the table use for the loop.
 */
export const kLoops = {
  poisson: { sampling: 'poisson', words: 'Poisson sampling' },
  shuffle: { sampling: 'shuffle', reshuffle: true, words: 're-shuffled each epoch' },
  same_order: { sampling: 'shuffle', reshuffle: false, words: 'the same order every epoch' },
  truncated_poisson: { sampling: 'truncated_poisson', words: 'truncated Poisson sampling' },
  balls_and_bins: { sampling: 'balls_and_bins', words: 'balls-and-bins batches' },
  cyclic_poisson: { sampling: 'cyclic_poisson', words: 'cyclic Poisson sampling' },
  fixed_batch: { sampling: 'fixed_batch', words: 'fixed-size batches' },
};

/** The loop of a row of op 'dpsgd_samplers' (its sampling and reshuffle), as kLoops names it. */
export const loopOfRow = ({ sampling, reshuffle }) =>
  Object.keys(kLoops).find(
    (loop) => kLoops[loop].sampling === sampling && (kLoops[loop].reshuffle ?? reshuffle) === reshuffle,
  );

/** Samplers whose step is one Gaussian mixture (a worst-case pair to draw; op 'dpsgd' compares methods for them). */
export const hasMixture = (sampling) => sampling === 'poisson' || sampling === 'fixed_batch';

/** The request's unknown for `mode` ('most_steps' → 'steps' or 'epochs', …), or null. */
export function unknownOf(mode, { duration, linkRate }) {
  if (mode === 'most_steps') return duration === 'epochs' ? 'epochs' : 'steps';
  if (mode === 'largest_rate') return linkRate ? 'sampling_rate' : 'batch_size';
  if (mode === 'largest_group') return 'group_size';
  return null;
}

/** The op 'dpsgd' request of the inputs, and the input each request field comes from. */
export function trainingRequest(inputs) {
  const number = (name) => parseNumber(inputs[name]);
  const loop = kLoops[inputs.sampling] ?? kLoops.poisson;
  const request = {
    op: 'dpsgd',
    group_size: number('group_size'),
    delta: number('delta'),
    sampling: loop.sampling,
    ...('reshuffle' in loop ? { reshuffle: loop.reshuffle } : {}),
    relation: inputs.relation,
  };
  const fields = { group_size: 'group_size', delta: 'delta', relation: 'relation', sampling: 'sampling' };
  const take = (name, input = name) => {
    request[name] = number(input);
    fields[name] = input;
  };
  // Every sampler from N and B (the Poisson samplers at q = B/N, cyclic Poisson at b·B/N); Poisson
  // sampling at the rate of a link of 0.2.0 or earlier while it holds one (dpsgd.js).
  const linkRate = loop.sampling === 'poisson' && (inputs.sampling_rate ?? '').trim() !== '';
  if (linkRate) take('sampling_rate');
  else {
    take('dataset_size');
    take('batch_size');
  }
  if (loop.sampling === 'truncated_poisson') take('max_batch_size');
  if (loop.sampling === 'cyclic_poisson') take('bands');
  take(inputs.duration === 'epochs' ? 'epochs' : 'steps');
  const unknown = unknownOf(inputs.mode, { duration: inputs.duration, linkRate });
  if (inputs.mode === 'calibrate' || unknown) {
    request.target = { epsilon: number('target_epsilon') };
    Object.assign(fields, { target: 'target_epsilon', 'target.epsilon': 'target_epsilon' });
  }
  if (inputs.mode !== 'calibrate') take('noise_multiplier');
  if (unknown) {
    // The unknown's field is left out (the core refuses it); for the length of training, both.
    for (const name of unknown === 'steps' || unknown === 'epochs' ? ['steps', 'epochs'] : [unknown]) {
      delete request[name];
      delete fields[name];
    }
    request.unknown = unknown;
    fields.unknown = 'mode';
  }
  return { request, fields };
}

/** The pair's request: the sampling, group and noise of `request` (no accounting, so it answers even where that is refused). */
export function pairItem(request, sigma) {
  const pair = { op: 'dpsgd_pair', noise_multiplier: sigma };
  for (const name of ['sampling', 'group_size', 'relation']) if (name in request) pair[name] = request[name];
  // The pair of Poisson sampling takes its rate (q = B/N, or the link's); that of fixed batches N and B.
  if (request.sampling === 'poisson')
    pair.sampling_rate = request.sampling_rate ?? request.batch_size / request.dataset_size;
  else Object.assign(pair, { dataset_size: request.dataset_size, batch_size: request.batch_size });
  return { id: 'pair', role: 'plot', request: pair };
}

/**
 * The same training under every sampler (op 'dpsgd_samplers', id 'samplers', role 'table') at noise
 * multiplier `sigma`: the cap of truncated Poisson and the bands of cyclic Poisson are the inputs'
 * when the loop is one of those (else the op's default cap, and no cyclic row). Null for Poisson
 * sampling at a link's own rate, which gives no N and B for the other samplers.
 */
export function samplersItem(request, sigma) {
  if ('sampling_rate' in request) return null;
  const table = { op: 'dpsgd_samplers', noise_multiplier: sigma };
  for (const name of ['dataset_size', 'batch_size', 'epochs', 'steps', 'delta', 'group_size', 'relation'])
    if (name in request) table[name] = request[name];
  if (request.sampling === 'truncated_poisson') table.max_batch_size = request.max_batch_size;
  if (request.sampling === 'cyclic_poisson') table.bands = request.bands;
  return { id: 'samplers', role: 'table', request: table };
}

/**
 * The training (id 'dpsgd', role 'row', labelled with the loop); when the question is the guarantee
 * for this noise, the table of every sampler and (for a mixture) the pair of one step too, at the
 * given noise (otherwise at the answer's: samplersItem, pairItem).
 */
export function requests(inputs) {
  const { request, fields } = trainingRequest(inputs);
  const { words } = kLoops[inputs.sampling] ?? kLoops.poisson;
  const label = `Your loop: ${words}`;
  const item = { id: 'dpsgd', role: 'row', label, request, fields };
  if ('target' in request) return [item];
  const sigma = request.noise_multiplier;
  const table = samplersItem(request, sigma);
  return [item, ...(table ? [table] : []), ...(hasMixture(request.sampling) ? [pairItem(request, sigma)] : [])];
}

/** The training of an answer: its steps and noise multiplier, without the target (what the figures vary). */
export function answeredTraining(request, result) {
  const base = {
    ...request,
    noise_multiplier: 'target' in request ? result.noise_multiplier : request.noise_multiplier,
  };
  delete base.target;
  delete base.epochs;
  base.steps = result.steps;
  return base;
}

/** Up to `count` log-spaced step counts from 1 to `steps`, always including both. */
function stepsValues(steps, count) {
  const values = new Set([1, steps]);
  for (let i = 1; i < count - 1; i += 1) values.add(Math.max(1, Math.round(steps ** (i / (count - 1)))));
  return [...values].sort((a, b) => a - b);
}

/**
 * Sommer's figures for the answered training `base` (answeredTraining): ε vs steps for k = 1…5
 * (role 'steps', with `k` and `steps`) and ε vs k up to the "plot up to" group size for several σ
 * (role 'sigma', with `k` and `factor`).
 */
export function figureItems(base, inputs) {
  const groups = rangeOf(inputs.kmax, kGroupsRange) ?? [];
  const steps = [];
  for (let k = 1; k <= Math.min(kStepsCurveK, groups.at(-1) ?? kStepsCurveK); k += 1) {
    for (const count of stepsValues(base.steps, kStepsPoints))
      steps.push({
        id: `steps-${k}-${count}`,
        role: 'steps',
        k,
        steps: count,
        request: { ...base, group_size: k, steps: count },
      });
  }
  const sigmas = kSigmaFactors.flatMap((factor) =>
    groups.map((k) => ({
      id: `sigma-${factor}-${k}`,
      role: 'sigma',
      k,
      factor,
      request: { ...base, group_size: k, noise_multiplier: base.noise_multiplier * factor },
    })),
  );
  return [...steps, ...sigmas];
}
