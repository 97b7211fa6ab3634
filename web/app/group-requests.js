// The Group privacy section's requests, shared by the page (group-update.js) and the <dp-calculator>
// element. For the section's inputs (name → text, as its form and links hold them): the group
// guarantee of one record's description under every definition (pure, (ε, δ), zCDP, the Laplace and
// Gaussian mechanisms, and with the core's catalog the mechanism picked from it), the plots' points
// for k up to "plot up to"; or, for "largest group for a target", the largest k of each description.
import { parseNumber } from './format.js';
import { freshSpec, requestOf } from './mechanism-picker.js';
import { parseSpec } from './picked-mechanism.js';
import { rangeOf } from './range.js';

export const kPlotRange = { max: 1000, points: 40, log: false };

// The descriptions of one record, in the form's order (the headline's order too).
const kKinds = ['guarantee', 'zcdp', 'laplace', 'gaussian', 'picked'];

/** The numbers of the inputs (NaN where a text is not one). */
function valuesOf(inputs) {
  const number = (name) => parseNumber(inputs[name]);
  return {
    k: number('k'),
    epsilon: number('epsilon'),
    delta: number('delta'),
    rho: number('rho'),
    sensitivity: number('sensitivity'),
    scale: number('scale'),
    sigma: number('sigma'),
    gaussianDelta: number('gaussian_delta'),
    targetEpsilon: number('target_epsilon'),
    targetDelta: number('target_delta'),
  };
}

const kField = { k: 'k' };
const kGaussianFields = {
  ...kField,
  'mechanism.sigma': 'sigma',
  'mechanism.sensitivity': 'sensitivity',
  delta: 'gaussian_delta',
};

/** The group requests at group size `k`, by description. */
function groupRequests(values, k) {
  const gaussian = { type: 'gaussian', sigma: values.sigma, sensitivity: values.sensitivity };
  return {
    pure: { op: 'group', k, guarantee: { type: 'pure', epsilon: values.epsilon } },
    approx: { op: 'group', k, guarantee: { type: 'approx', epsilon: values.epsilon, delta: values.delta } },
    zcdp: { op: 'group', k, guarantee: { type: 'zcdp', rho: values.rho } },
    laplace: { op: 'group', k, mechanism: { type: 'laplace', scale: values.scale, sensitivity: values.sensitivity } },
    gaussian: { op: 'group', k, delta: values.gaussianDelta, mechanism: gaussian },
  };
}

const kLabels = {
  pure: 'Pure ε-DP',
  approx: 'Approximate (ε, δ)-DP',
  zcdp: 'ρ-zCDP',
  laplace: 'Laplace mechanism (b, Δ)',
  gaussian: 'Gaussian mechanism (σ, Δ): exact',
};
const kSolveLabels = {
  guarantee: 'Per-record guarantee (generic group privacy)',
  laplace: 'Laplace mechanism (b, Δ)',
  gaussian: 'Gaussian mechanism (σ, Δ): exact',
};

const kRowFields = {
  pure: { ...kField, 'guarantee.epsilon': 'epsilon' },
  approx: { ...kField, 'guarantee.epsilon': 'epsilon', 'guarantee.delta': 'delta' },
  zcdp: { ...kField, 'guarantee.rho': 'rho' },
  laplace: { ...kField, 'mechanism.scale': 'scale', 'mechanism.sensitivity': 'sensitivity' },
  gaussian: kGaussianFields,
};

/**
 * The mechanism picked from the catalog (the `mechanism` input: its spec as text, blank for the
 * catalog's first type): asked without δ, again under substitution when the mechanism has a pair for
 * that relation only, and again at the Gaussian target δ when the core needs one (a mechanism whose
 * group guarantee is not pure).
 */
function pickedItem(inputs, values, catalog) {
  const fallback = () => freshSpec(catalog, catalog.types[0].name);
  const text = inputs.mechanism ?? '';
  const spec = text.trim() === '' ? fallback() : (parseSpec(text).spec ?? fallback());
  const { request } = requestOf(catalog, spec, 'mechanism');
  // Without a relation the core refuses a mechanism that has no pair under add/remove on its type.
  const retry = (asked, response) => {
    if (response.ok || response.error.code !== 'invalid_argument') return null;
    if (response.error.field === 'mechanism.type' && !('relation' in asked) && !('delta' in asked))
      return { ...asked, relation: 'substitute' };
    if (response.error.field === 'delta' && !('delta' in asked)) return { ...asked, delta: values.gaussianDelta };
    return null;
  };
  const title = catalog.types.find((type) => type.name === spec.type)?.title ?? spec.type;
  return {
    id: 'picked',
    role: 'row',
    label: title,
    spec,
    request: { op: 'group', k: values.k, mechanism: request },
    retry,
  };
}

/** The plots' requests: for each k, the group's ε or ρ of three descriptions and the (ε, δ) bound's δ. */
function plotItems(inputs, values) {
  const series = [
    ['pure', 'parameters'],
    ['zcdp', 'parameters'],
    ['gaussian', 'parameters'],
    ['approx', 'deltas'],
  ];
  return (rangeOf(inputs.kmax, kPlotRange) ?? []).flatMap((k) => {
    const base = groupRequests(values, k);
    return series.map(([kind, target]) => ({
      id: `plot-${kind}-${k}`,
      role: 'plot',
      kind,
      target,
      k,
      request: base[kind],
    }));
  });
}

/** "Largest group for a target": for each description, op 'group' with unknown 'k'. */
function solveItems(values) {
  const target = { epsilon: values.targetEpsilon, delta: values.targetDelta };
  const solve = (record, own) => ({ op: 'group', unknown: 'k', ...record, target: own });
  const pureRecord = values.delta === 0;
  const targetFields = { 'target.epsilon': 'target_epsilon', 'target.delta': 'target_delta' };
  const item = (name, request, fields) => ({
    id: `largest-${name}`,
    role: 'row',
    label: kSolveLabels[name],
    kind: name,
    request,
    fields: { ...targetFields, ...fields },
  });
  return [
    item(
      'guarantee',
      pureRecord
        ? solve({ guarantee: { type: 'pure', epsilon: values.epsilon } }, { epsilon: target.epsilon })
        : solve({ guarantee: { type: 'approx', epsilon: values.epsilon, delta: values.delta } }, target),
      { 'guarantee.epsilon': 'epsilon', 'guarantee.delta': 'delta' },
    ),
    item(
      'laplace',
      solve(
        { mechanism: { type: 'laplace', scale: values.scale, sensitivity: values.sensitivity } },
        { epsilon: target.epsilon },
      ),
      { 'mechanism.scale': 'scale', 'mechanism.sensitivity': 'sensitivity' },
    ),
    item(
      'gaussian',
      solve({ mechanism: { type: 'gaussian', sigma: values.sigma, sensitivity: values.sensitivity } }, target),
      { 'mechanism.sigma': 'sigma', 'mechanism.sensitivity': 'sensitivity' },
    ),
  ];
}

/**
 * The requests for `inputs`: rows ({ id, role: 'row', request, fields: request path → input name })
 * of each description at group size k (and 'picked' when `catalog`, the core's mechanism catalog, is
 * given), then the plots' points (role 'plot'); for "largest group for a target", one row per
 * description ('largest-guarantee', 'largest-laplace', 'largest-gaussian').
 */
export function requests(inputs, { catalog } = {}) {
  const values = valuesOf(inputs);
  if (inputs.question === 'largest_k') return solveItems(values);
  const base = groupRequests(values, values.k);
  const rows = Object.entries(base).map(([id, request]) => ({
    id,
    role: 'row',
    label: kLabels[id],
    request,
    fields: kRowFields[id],
  }));
  if (catalog) rows.push(pickedItem(inputs, values, catalog));
  return [...rows, ...plotItems(inputs, values)];
}

/** Which of the alternative descriptions of a record the person gave (inputs they set). */
export function ownInputs(isSet) {
  return {
    picked: isSet('mechanism'),
    guarantee: isSet('epsilon') || isSet('delta'),
    delta: isSet('delta'),
    zcdp: isSet('rho'),
    laplace: isSet('scale'),
    gaussian: isSet('sigma') || isSet('gaussian_delta'),
  };
}

/**
 * The descriptions the question is about: those the person set, in the form's order; with none
 * set, the per-record guarantee (its example values).
 */
export function askedKinds(isSet) {
  const own = ownInputs(isSet);
  const chosen = kKinds.filter((kind) => own[kind]);
  return chosen.length ? chosen : ['guarantee'];
}

/** Pure when δ is 0, or when the person gave an ε and no δ (the δ shown is then only an example). */
export function isPureRecord(inputs, isSet) {
  const own = ownInputs(isSet);
  return parseNumber(inputs.delta) === 0 || (own.guarantee && !own.delta);
}

/**
 * The ids of the rows that answer the question as asked (the headline's, in its order): the
 * group's guarantee of each description the person set (the per-record one pure or (ε, δ)).
 */
export function asked(inputs, isSet) {
  const kinds = askedKinds(isSet);
  if (inputs.question === 'largest_k') {
    const solved = kinds.filter((kind) => kind !== 'zcdp' && kind !== 'picked');
    return (solved.length ? solved : ['guarantee']).map((kind) => `largest-${kind}`);
  }
  return kinds.map((kind) => (kind === 'guarantee' ? (isPureRecord(inputs, isSet) ? 'pure' : 'approx') : kind));
}
