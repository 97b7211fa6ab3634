// The DP-SGD with groups section's requests, shared by the page (dpsgd-update.js) and the
// <dp-calculator> element: op 'dpsgd' for the training the inputs describe (its guarantee for a group
// of k examples, the noise multiplier for a target ε, or the largest value of one input for it), the
// worst-case pair of one step (op 'dpsgd_pair'), and Sommer's figures: ε vs steps for k = 1…5 and ε
// vs k for several noise multipliers, at the steps and noise of the answer.
import { parseNumber } from './format.js';
import { rangeOf } from './range.js';

export const kGroupsRange = { max: 64, points: 8, log: false };
const kStepsCurveK = 5; // Sommer's figure 2: k = 1…5
const kStepsPoints = 5; // steps values per curve
const kSigmaFactors = [1, 2, 4]; // Sommer's figure 3: several noise multipliers

/** The request's unknown for `mode` ('most_steps' → 'steps' or 'epochs', …), or null. */
export function unknownOf(mode, { duration, sampling }) {
  if (mode === 'most_steps') return duration === 'epochs' ? 'epochs' : 'steps';
  if (mode === 'largest_rate') return sampling === 'poisson' ? 'sampling_rate' : 'batch_size';
  if (mode === 'largest_group') return 'group_size';
  return null;
}

/** The op 'dpsgd' request of the inputs, and the input each request field comes from. */
export function trainingRequest(inputs) {
  const number = (name) => parseNumber(inputs[name]);
  const request = {
    op: 'dpsgd',
    group_size: number('group_size'),
    delta: number('delta'),
    sampling: inputs.sampling,
    relation: inputs.relation,
  };
  const fields = { group_size: 'group_size', delta: 'delta', relation: 'relation', sampling: 'sampling' };
  const take = (name, input = name) => {
    request[name] = number(input);
    fields[name] = input;
  };
  if (request.sampling === 'fixed_batch') {
    take('dataset_size');
    take('batch_size');
  } else take('sampling_rate');
  take(inputs.duration === 'epochs' ? 'epochs' : 'steps');
  const unknown = unknownOf(inputs.mode, { duration: inputs.duration, sampling: request.sampling });
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
  for (const name of ['sampling', 'sampling_rate', 'dataset_size', 'batch_size', 'group_size', 'relation'])
    if (name in request) pair[name] = request[name];
  return { id: 'pair', role: 'plot', request: pair };
}

/**
 * The training (id 'dpsgd', role 'row'); when the question is the guarantee for this noise, the
 * pair of one step too (its noise is the given one; otherwise it is the answer's: pairItem).
 */
export function requests(inputs) {
  const { request, fields } = trainingRequest(inputs);
  const item = { id: 'dpsgd', role: 'row', label: 'Tight (worst-case mixture, PLD)', request, fields };
  const forward = !('target' in request);
  return forward ? [item, pairItem(request, request.noise_multiplier)] : [item];
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
