// The Noise calibration section's requests, shared by the page (calibrate-update.js) and the
// <dp-calculator> element: the smallest Gaussian σ, Laplace scale b, DP-SGD noise multiplier (or the
// noise of any mechanism of the core's catalog) whose sound bound meets a target (ε, δ) over k uses,
// by every method that applies (op 'calibrate'), and, for the closed forms, the noise needed against
// the target ε (the plot).
import { parseNumber } from './format.js';
import { anyMechanism } from './calibrate-any.js';

// The mechanisms of the form: the request's mechanism and unknown, and the methods that apply,
// tightest first. `pureTarget`: the core finds the method does not apply to a pure target (δ = 0).
const kMechanisms = {
  gaussian: {
    id: 'gaussian',
    describe: 'Gaussian noise',
    short: 'Gaussian',
    symbol: 'σ',
    noiseName: 'Gaussian noise std. dev.',
    unknown: 'sigma',
    mechanism: ({ sensitivity }) => ({ type: 'gaussian', sensitivity }),
    methods: [
      {
        id: 'analytic',
        label: 'Analytic Gaussian (exact)',
        method: 'analytic',
        plotted: true,
        chartKey: 'group-gaussian',
      },
      { id: 'pld', label: 'PLD (numeric)', method: 'pld' },
      { id: 'zcdp', label: 'zCDP (Canonne–Kamath–Steinke)', method: 'zcdp', plotted: true, chartKey: 'zcdp' },
    ],
  },
  laplace: {
    id: 'laplace',
    describe: 'Laplace noise',
    short: 'Laplace',
    symbol: 'b',
    noiseName: 'Laplace noise scale',
    unknown: 'scale',
    mechanism: ({ sensitivity }) => ({ type: 'laplace', sensitivity }),
    methods: [
      { id: 'pld', label: 'PLD (numeric, tightest)', method: 'pld', pureTarget: true },
      {
        id: 'optimal',
        label: 'Optimal composition of (Δ/b)-DP',
        method: 'optimal',
        plotted: true,
        chartKey: 'optimal',
        pureTarget: true,
      },
      { id: 'basic', label: 'Basic composition (pure ε)', method: 'basic', plotted: true, chartKey: 'basic' },
    ],
  },
  dpsgd: {
    id: 'dpsgd',
    describe: 'DP-SGD (Poisson-subsampled Gaussian)',
    short: 'DP-SGD',
    symbol: 'z',
    noiseName: 'noise multiplier',
    unknown: 'noise_multiplier',
    mechanism: ({ sensitivity, rate }) => ({
      type: 'poisson_subsampled',
      rate,
      mechanism: { type: 'gaussian', sensitivity },
    }),
    methods: [{ id: 'pld', label: 'PLD (numeric)', method: 'pld' }],
  },
};

// The target ε values of the plot, as multiples of the target ε (each rounded to three digits, so
// the chart's table shows them as sent).
export const kPlotFactors = Array.from({ length: 17 }, (_, i) => 10 ** ((i - 8) / 4));
export const plotEpsilons = (epsilon) => kPlotFactors.map((factor) => Number((epsilon * factor).toPrecision(3)));

// The input behind each request field (a mechanism of the catalog adds its parameters' inputs).
const kFields = {
  count: 'count',
  'target.epsilon': 'epsilon',
  'target.delta': 'delta',
  'mechanism.rate': 'rate',
  'mechanism.sensitivity': 'sensitivity',
  'mechanism.mechanism.sensitivity': 'sensitivity',
};

/** The numbers of the inputs (NaN where a text is not one). */
export function valuesOf(inputs) {
  const names = ['sensitivity', 'rate', 'count', 'epsilon', 'delta'];
  return Object.fromEntries(names.map((name) => [name, parseNumber(inputs[name])]));
}

/**
 * What is calibrated: the form's mechanism ({ id, describe, short, symbol, noiseName, unknown,
 * mechanism(values), methods }), or for "any mechanism" the one of the `any_mechanism` input from
 * `catalog` (calibrate-any.js; null without a catalog).
 */
export function entryOf(inputs, catalog) {
  if (inputs.mechanism !== 'catalog') return kMechanisms[inputs.mechanism];
  return catalog ? anyMechanism(catalog, inputs.any_mechanism ?? '') : null;
}

function requestOf(entry, values, method, epsilon = values.epsilon) {
  return {
    op: 'calibrate',
    mechanism: entry.mechanism(values),
    unknown: entry.unknown,
    count: values.count,
    method,
    target: { epsilon, delta: values.delta },
  };
}

/**
 * One row per method (role 'row', with its `method` description; the PLD row's request is numeric),
 * then the plot's points (role 'plot', with `method` and `epsilon`). For "any mechanism" these need
 * `catalog`, and there are none when the mechanism has no noise to solve for.
 */
export function requests(inputs, { catalog } = {}) {
  const entry = entryOf(inputs, catalog);
  if (!entry || entry.solvable === false) return [];
  const values = valuesOf(inputs);
  const fields = { ...kFields, ...entry.fields };
  const rows = entry.methods.map((method) => ({
    id: method.id,
    role: 'row',
    label: method.label,
    method,
    request: requestOf(entry, values, method.method),
    fields,
    // Of a mechanism of the catalog, a method the core refuses on `method` does not apply to it.
    optional: Boolean(entry.appliesOnly),
  }));
  const plots = entry.methods
    .filter((method) => method.plotted)
    .flatMap((method) =>
      plotEpsilons(values.epsilon).map((epsilon) => ({
        id: `plot-${method.id}-${epsilon}`,
        role: 'plot',
        method,
        epsilon,
        request: requestOf(entry, values, method.method, epsilon),
      })),
    );
  return [...rows, ...plots];
}
