// The sections of <dp-calculator> (dp-calculator.js): the page's nine questions, each as a few
// attributes and the requests that answer them. Each section: its title and question, its inputs
// (attribute, label, default: '' leaves it out unless set; `text`: kept as text, not a number),
// `alternatives` when its inputs describe alternatives (then only the attributes set count), and
// `rows(values)` → [label, request, describe?(result, request) → text]. A row without `describe`
// shows its guarantee. Every number comes from the calculator; the element only words it.
import { formatNumber } from '../app/format.js';

const attr = (name, label, fallback, { text = false } = {}) => ({ name, label, fallback, text });

/** "σ = 11.798": a noise found by calibration, rounded up (more noise is always safe). */
const noise = (symbol, key) => (result) => `${symbol} = ${formatNumber(result[key], 'up')}`;

/** A pure or approximate item of k releases, as the composition requests take it. */
const item = (epsilon, delta, count) => ({
  guarantee: delta ? { type: 'approx', epsilon, delta } : { type: 'pure', epsilon },
  count,
});

export const sections = {
  group: {
    title: 'Group privacy',
    alternatives: true,
    question: 'What does a per-record guarantee give a person who contributes k records?',
    inputs: [
      attr('k', 'group size k', '4'),
      attr('epsilon', 'ε per record', '0.5'),
      attr('delta', 'δ per record', '1e-6'),
      attr('rho', 'ρ per record (zCDP)', ''),
      attr('scale', 'Laplace scale b', ''),
      attr('sigma', 'Gaussian σ', ''),
      attr('sensitivity', 'sensitivity Δ', '1'),
    ],
    rows(v) {
      const rows = [];
      const k = v.k;
      if (v.epsilon !== undefined) {
        rows.push(
          v.delta === undefined || v.delta === 0
            ? ['Pure ε-DP', { op: 'group', k, guarantee: { type: 'pure', epsilon: v.epsilon } }]
            : [
                'Approximate (ε, δ)-DP',
                { op: 'group', k, guarantee: { type: 'approx', epsilon: v.epsilon, delta: v.delta } },
              ],
        );
      }
      if (v.rho !== undefined) rows.push(['ρ-zCDP', { op: 'group', k, guarantee: { type: 'zcdp', rho: v.rho } }]);
      if (v.scale !== undefined) {
        rows.push([
          'Laplace mechanism',
          { op: 'group', k, mechanism: { type: 'laplace', scale: v.scale, sensitivity: v.sensitivity } },
        ]);
      }
      if (v.sigma !== undefined) {
        rows.push([
          `Gaussian mechanism at δ = ${v.delta ?? 1e-5}`,
          {
            op: 'group',
            k,
            delta: v.delta ?? 1e-5,
            mechanism: { type: 'gaussian', sigma: v.sigma, sensitivity: v.sensitivity },
          },
        ]);
      }
      return rows;
    },
  },
  composition: {
    title: 'Composition',
    alternatives: true,
    question: 'What do k mechanisms on the same data give together?',
    inputs: [
      attr('count', 'number of mechanisms k', '100'),
      attr('epsilon', 'ε₀ per mechanism', '0.1'),
      attr('item-delta', 'δ₀ per mechanism', '0'),
      attr('sigma', 'Gaussian σ', ''),
      attr('rate', 'sampling rate q', ''),
      attr('sensitivity', 'sensitivity Δ', '1'),
      attr('delta', 'target total δ', '1e-5'),
    ],
    rows(v) {
      const count = v.count;
      if (v.sigma !== undefined) {
        const gaussian = { type: 'gaussian', sigma: v.sigma, sensitivity: v.sensitivity };
        const mechanism =
          v.rate === undefined ? gaussian : { type: 'poisson_subsampled', rate: v.rate, mechanism: gaussian };
        const rows = [
          [
            'Privacy loss distributions (numeric)',
            { op: 'compose', method: 'pld', delta: v.delta, items: [{ mechanism, count }] },
          ],
        ];
        if (v.rate === undefined)
          rows.push(['zCDP', { op: 'compose', method: 'zcdp', delta: v.delta, items: [{ mechanism, count }] }]);
        return rows;
      }
      const items = [item(v.epsilon, v['item-delta'], count)];
      return [
        ['Basic composition', { op: 'compose', method: 'basic', items }],
        [
          'Advanced composition (Kairouz–Oh–Viswanath)',
          { op: 'compose', method: 'advanced', variant: 'kairouz', delta: v.delta, items },
        ],
        ['Optimal composition', { op: 'compose', method: 'optimal', delta: v.delta, items }],
      ];
    },
  },
  split: {
    title: 'Budget split',
    question: 'How large may each of k steps be for a total (ε, δ)?',
    inputs: [
      attr('epsilon', 'total ε', '1'),
      attr('delta', 'total δ', '1e-5'),
      attr('count', 'number of steps k', '100'),
    ],
    rows(v) {
      const request = (method, extra = {}) => ({
        op: 'split',
        method,
        ...extra,
        target: { epsilon: v.epsilon, delta: v.delta },
        count: v.count,
      });
      return [
        ['Basic composition', request('basic')],
        ['Advanced (Kairouz–Oh–Viswanath)', request('advanced', { variant: 'kairouz' })],
        ['zCDP', request('zcdp')],
      ];
    },
  },
  calibrate: {
    title: 'Noise calibration',
    question: 'How much noise meets a target (ε, δ) over k uses?',
    inputs: [
      attr('noise', 'noise: gaussian, laplace or dpsgd', 'gaussian', { text: true }),
      attr('sensitivity', 'sensitivity Δ (DP-SGD: clip norm)', '1'),
      attr('rate', 'sampling rate q (DP-SGD)', '0.01'),
      attr('count', 'number of uses k', '10'),
      attr('epsilon', 'target ε', '1'),
      attr('delta', 'target δ', '1e-5'),
    ],
    rows(v) {
      const request = (mechanism, unknown, method) => ({
        op: 'calibrate',
        mechanism,
        unknown,
        count: v.count,
        method,
        target: { epsilon: v.epsilon, delta: v.delta },
      });
      if (v.noise === 'laplace') {
        const laplace = { type: 'laplace', sensitivity: v.sensitivity };
        return [
          ['Basic composition (pure ε)', request(laplace, 'scale', 'basic'), noise('b', 'scale')],
          ['Optimal composition', request(laplace, 'scale', 'optimal'), noise('b', 'scale')],
        ];
      }
      if (v.noise === 'dpsgd') {
        const step = {
          type: 'poisson_subsampled',
          rate: v.rate,
          mechanism: { type: 'gaussian', sensitivity: v.sensitivity },
        };
        return [
          ['PLD (numeric)', request(step, 'noise_multiplier', 'pld'), noise('noise multiplier', 'noise_multiplier')],
        ];
      }
      const gaussian = { type: 'gaussian', sensitivity: v.sensitivity };
      return [
        ['Analytic Gaussian (exact)', request(gaussian, 'sigma', 'analytic'), noise('σ', 'sigma')],
        ['zCDP (Canonne–Kamath–Steinke)', request(gaussian, 'sigma', 'zcdp'), noise('σ', 'sigma')],
      ];
    },
  },
  convert: {
    title: 'zCDP to (ε, δ)',
    question: 'What (ε, δ) does a ρ-zCDP guarantee give?',
    inputs: [attr('rho', 'ρ', '0.5'), attr('delta', 'δ', '1e-6')],
    rows: (v) => [
      ['Conversion', { op: 'convert', guarantee: { type: 'zcdp', rho: v.rho }, to: 'approx', delta: v.delta }],
    ],
  },
  kmeans: {
    title: 'DP k-means',
    question:
      'Lloyd’s algorithm with T iterations releases 2T Laplace answers (ℓ1 sensitivity 1: points in the ℓ1 unit ball), each at ε/(2T): what do they compose to?',
    inputs: [
      attr('epsilon', 'total ε', '1'),
      attr('iterations', 'iterations T', '5'),
      attr('delta', 'δ for the comparison', '1e-6'),
    ],
    rows(v) {
      const items = [item(v.epsilon / (2 * v.iterations), 0, 2 * v.iterations)];
      return [
        ['Basic composition (pure)', { op: 'compose', method: 'basic', items }],
        ['Optimal composition', { op: 'compose', method: 'optimal', delta: v.delta, items }],
        ['zCDP', { op: 'compose', method: 'zcdp', delta: v.delta, items }],
      ];
    },
  },
  dpsgd: {
    title: 'DP-SGD groups',
    question:
      'DP-SGD with Poisson sampling: what is the guarantee of a group of k examples? (With dataset-size and batch-size set: fixed-size batches, which assume the worst-case property.)',
    inputs: [
      attr('group-size', 'examples per person k', '4'),
      attr('sampling-rate', 'sampling rate q', '0.01'),
      attr('dataset-size', 'dataset size N (fixed batches)', ''),
      attr('batch-size', 'batch size B (fixed batches)', ''),
      attr('steps', 'steps T', '1000'),
      attr('noise-multiplier', 'noise multiplier σ', '1.1'),
      attr('delta', 'target δ', '1e-5'),
    ],
    rows(v) {
      const fixed = v['dataset-size'] !== undefined && v['batch-size'] !== undefined;
      const sampling = fixed
        ? { sampling: 'fixed_batch', dataset_size: v['dataset-size'], batch_size: v['batch-size'] }
        : { sampling: 'poisson', sampling_rate: v['sampling-rate'] };
      return [
        [
          fixed ? 'Tight, assuming the worst-case property (not proven for fixed batches)' : 'Tight (Poisson sampling)',
          {
            op: 'dpsgd',
            ...sampling,
            steps: v.steps,
            group_size: v['group-size'],
            noise_multiplier: v['noise-multiplier'],
            delta: v.delta,
          },
        ],
      ];
    },
  },
  databases: {
    title: 'Several databases',
    question: 'Releases on n databases, a person in at most m of them: what is their guarantee?',
    inputs: [
      attr('count', 'databases n', '1000'),
      attr('epsilon', 'ε₀ per release', '0.05'),
      attr('item-delta', 'δ₀ per release', '1e-9'),
      attr('m', 'at most m per person', '365'),
      attr('delta', 'target total δ', '1e-5'),
    ],
    rows(v) {
      const databases = [{ ...item(v.epsilon, v['item-delta'], v.count), queries: 1 }];
      const constraint = { type: 'at_most', m: v.m };
      const pure = !v['item-delta'];
      const request = (neighbours) =>
        pure
          ? { op: 'databases', method: 'basic', databases, constraint, neighbours }
          : { op: 'databases', method: 'optimal', delta: v.delta, databases, constraint, neighbours };
      return [
        [`Unbounded neighbours (${pure ? 'basic' : 'optimal'} composition)`, request('unbounded')],
        [`Bounded neighbours (${pure ? 'basic' : 'optimal'} composition)`, request('bounded')],
      ];
    },
  },
  groupwise: {
    title: 'Group-wise relative error',
    question:
      'Algorithm 1 of Pujol & Desfontaines (2023): what is proven for a group of x, and what is only estimated?',
    inputs: [
      attr('rho', 'first stage ρ', '0.005'),
      attr('relative-error', 'relative error r', '0.3'),
      attr('count', 'group size x', '1000'),
      attr('delta', 'δ for ε', '1e-6'),
    ],
    rows: (v) => [
      [
        `Group of ${v.count}`,
        {
          op: 'groupwise_privacy',
          rho: v.rho,
          relative_error: v['relative-error'],
          counts: [v.count],
          ...(v.delta === undefined ? {} : { delta: v.delta }),
        },
        (result) =>
          `proven ρ = ${formatNumber(result.proven.rho)}; estimated ρ ≈ ${formatNumber(result.groups[0].rho_estimate, 'nearest')} (numerical estimate, not a proof)`,
      ],
    ],
  },
};
