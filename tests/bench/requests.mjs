// The requests `npm run bench` times, with the target the issue sets for each.
const approx = { type: 'approx', epsilon: 1, delta: 1e-6 };
const pure = { type: 'pure', epsilon: 0.1 };

export const benchmarkRequests = [
  {
    name: 'group, pure',
    request: { op: 'group', k: 8, guarantee: { type: 'pure', epsilon: 1 } },
    targetMicroseconds: 50,
  },
  { name: 'group, approx', request: { op: 'group', k: 8, guarantee: approx }, targetMicroseconds: 50 },
  {
    name: 'group, zCDP',
    request: { op: 'group', k: 8, guarantee: { type: 'zcdp', rho: 0.1 } },
    targetMicroseconds: 50,
  },
  {
    name: 'group, Laplace',
    request: { op: 'group', k: 8, mechanism: { type: 'laplace', scale: 1 } },
    targetMicroseconds: 50,
  },
  {
    name: 'group, Gaussian (analytic)',
    request: { op: 'group', k: 8, delta: 1e-6, mechanism: { type: 'gaussian', sigma: 4 } },
    targetMicroseconds: 50,
  },
  {
    name: 'compose, basic',
    request: { op: 'compose', method: 'basic', items: [{ guarantee: approx, count: 100 }] },
    targetMicroseconds: 50,
  },
  {
    name: 'compose, parallel',
    request: { op: 'compose', method: 'parallel', items: [{ guarantee: approx, count: 100 }] },
    targetMicroseconds: 50,
  },
  {
    name: "compose, advanced DRV (δ')",
    request: {
      op: 'compose',
      method: 'advanced',
      variant: 'dwork_rothblum_vadhan',
      delta_slack: 1e-6,
      items: [{ guarantee: pure, count: 100 }],
    },
    targetMicroseconds: 50,
  },
  {
    name: 'compose, advanced KOV (total δ)',
    request: {
      op: 'compose',
      method: 'advanced',
      variant: 'kairouz',
      delta: 1e-5,
      items: [{ guarantee: pure, count: 100 }],
    },
    targetMicroseconds: 50,
  },
  {
    name: 'compose, optimal k=100',
    request: { op: 'compose', method: 'optimal', delta: 1e-5, items: [{ guarantee: pure, count: 100 }] },
    targetMicroseconds: 50,
  },
  {
    name: 'compose, optimal k=1e5, kε₀=1e3',
    request: {
      op: 'compose',
      method: 'optimal',
      delta: 1e-5,
      items: [{ guarantee: { type: 'pure', epsilon: 0.01 }, count: 100000 }],
    },
    targetMicroseconds: 50000,
  },
  {
    name: 'compose, zCDP → (ε, δ)',
    request: {
      op: 'compose',
      method: 'zcdp',
      delta: 1e-6,
      items: [{ guarantee: { type: 'zcdp', rho: 0.01 }, count: 50 }],
    },
    targetMicroseconds: 50,
  },
  {
    name: 'convert, zCDP → (ε, δ) CKS',
    request: { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6 },
    targetMicroseconds: 50,
  },
  {
    name: 'split, basic',
    request: { op: 'split', method: 'basic', target: { epsilon: 1, delta: 1e-5 }, count: 100 },
    targetMicroseconds: 50,
  },
  {
    name: 'split, advanced KOV',
    request: { op: 'split', method: 'advanced', variant: 'kairouz', target: { epsilon: 1, delta: 1e-5 }, count: 100 },
    targetMicroseconds: 50,
  },
  {
    name: 'split, zCDP',
    request: { op: 'split', method: 'zcdp', target: { epsilon: 1, delta: 1e-5 }, count: 100 },
    targetMicroseconds: 50,
  },
];

// Numeric (PLD) requests, timed once each in wasm, with the targets.
const subsampledGaussian = (sigma, rate) => ({
  type: 'poisson_subsampled',
  rate,
  mechanism: { type: 'gaussian', sigma },
});
export const numericRequests = [
  ...[1e2, 1e3, 1e4, 1e5, 1e6].map((count) => ({
    name: `PLD, subsampled Gaussian σ=1 q=0.01 T=${count.toExponential(0)}`,
    request: { op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: subsampledGaussian(1, 0.01), count }] },
    targetMilliseconds: count === 1e4 ? 100 : undefined,
  })),
  {
    name: 'PLD, 50 different Gaussians σ = 20…69',
    request: {
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: Array.from({ length: 50 }, (_, i) => ({ mechanism: { type: 'gaussian', sigma: 20 + i }, count: 1 })),
    },
    targetMilliseconds: 100,
  },
];

// Noise calibration (op 'calibrate'): a search over the sound forward bound. The closed forms take
// a few to a few dozen evaluations of microseconds each; the DP-SGD search a handful of PLD
// evaluations (milliseconds each), so its target is the one every request has: about a second.
const dpsgdClip = { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sensitivity: 1 } };
benchmarkRequests.push(
  {
    name: 'calibrate, Gaussian σ (analytic), k=100',
    request: {
      op: 'calibrate',
      mechanism: { type: 'gaussian' },
      unknown: 'sigma',
      count: 100,
      target: { epsilon: 1, delta: 1e-5 },
    },
    targetMicroseconds: 1000,
  },
  {
    name: 'calibrate, Gaussian σ (zCDP), k=100',
    request: {
      op: 'calibrate',
      mechanism: { type: 'gaussian' },
      unknown: 'sigma',
      count: 100,
      method: 'zcdp',
      target: { epsilon: 1, delta: 1e-5 },
    },
    targetMicroseconds: 1000,
  },
  {
    name: 'calibrate, Laplace b (optimal), k=100',
    request: {
      op: 'calibrate',
      mechanism: { type: 'laplace' },
      unknown: 'scale',
      count: 100,
      method: 'optimal',
      target: { epsilon: 1, delta: 1e-5 },
    },
    targetMicroseconds: 1000,
  },
  {
    name: 'calibrate, Laplace b (PLD), k=100',
    request: {
      op: 'calibrate',
      mechanism: { type: 'laplace' },
      unknown: 'scale',
      count: 100,
      target: { epsilon: 1, delta: 1e-5 },
    },
    targetMicroseconds: 1000000,
  },
  {
    name: 'calibrate, DP-SGD noise multiplier (PLD), q=0.01 T=1e3',
    request: {
      op: 'calibrate',
      mechanism: dpsgdClip,
      unknown: 'noise_multiplier',
      count: 1000,
      target: { epsilon: 1, delta: 1e-5 },
    },
    targetMicroseconds: 1000000,
  },
  {
    name: 'calibrate, DP-SGD noise multiplier (PLD), q=0.01 T=1e4',
    request: {
      op: 'calibrate',
      mechanism: dpsgdClip,
      unknown: 'noise_multiplier',
      count: 10000,
      target: { epsilon: 8, delta: 1e-5 },
    },
    targetMicroseconds: 1000000,
  },
);

// DP-SGD groups: fixed batches N = 60000, B = 256 unless stated, δ = 1e-5.
const dpsgd = (fields) => ({
  op: 'dpsgd',
  sampling: 'fixed_batch',
  dataset_size: 60000,
  batch_size: 256,
  delta: 1e-5,
  ...fields,
});
const rdpOrders = Array.from({ length: 100 }, (_, i) => 1.25 + i * 0.75); // 100 orders, integer and fractional
benchmarkRequests.push({
  name: 'rdp, subsampled Gaussian, 100 orders, T=1e6',
  request: { op: 'rdp', orders: rdpOrders, items: [{ mechanism: subsampledGaussian(1.1, 0.01), count: 1e6 }] },
  targetMicroseconds: 1000,
});
numericRequests.push(
  {
    name: 'dpsgd k=16 σ=1.1 T=16384',
    request: dpsgd({ group_size: 16, noise_multiplier: 1.1, steps: 16384 }),
    targetMilliseconds: 1000,
  },
  {
    name: 'dpsgd k=5 σ=2 T=16384',
    request: dpsgd({ group_size: 5, noise_multiplier: 2, steps: 16384 }),
    targetMilliseconds: 200,
  },
  {
    name: 'dpsgd calibration k=8, 60 epochs, target ε=8',
    request: dpsgd({ group_size: 8, epochs: 60, target: { epsilon: 8 } }),
    targetMilliseconds: 3000,
  },
  {
    name: 'dpsgd k=256 N=1e6 B=1024 σ=2 T=1e4',
    request: dpsgd({ group_size: 256, dataset_size: 1e6, batch_size: 1024, noise_multiplier: 2, steps: 1e4 }),
    targetMilliseconds: 2000,
  },
);

// Op 'group' on a Poisson-subsampled mechanism: the group's mixture pair (k + 1 components), composed
// once; a default-accuracy answer within the 100 ms.
const subsampledGroup = (k, rate, inner) => ({
  op: 'group',
  k,
  delta: 1e-5,
  mechanism: { type: 'poisson_subsampled', rate, mechanism: inner },
});
numericRequests.push(
  {
    name: 'group k=32 of a subsampled Gaussian σ=1.5 q=0.02',
    request: subsampledGroup(32, 0.02, { type: 'gaussian', sigma: 1.5 }),
    targetMilliseconds: 100,
  },
  ...[
    [32, 0.02, 1.5],
    [1000, 0.02, 1.5],
    [100000, 0.001, 10],
  ].map(([k, rate, scale]) => ({
    name: `group k=${k} of a subsampled Laplace b=${scale} q=${rate}`,
    request: subsampledGroup(k, rate, { type: 'laplace', scale }),
    targetMilliseconds: 100,
  })),
);

// Op 'group' on a mechanism with no group transform: one record's PLD composed once, then group
// privacy over its privacy profile (a branch and bound over ε); its cost does not grow with k.
const withoutReplacement = (inner) => ({
  type: 'sampled_without_replacement',
  dataset_size: 1000,
  sample_size: 10,
  mechanism: inner,
});
numericRequests.push(
  ...[
    [
      'group k=4 of a Gaussian σ=1 sampled without replacement (10 of 1000)',
      4,
      withoutReplacement({ type: 'gaussian', sigma: 1 }),
    ],
    [
      'group k=1000 of a Laplace b=1 sampled without replacement (10 of 1000)',
      1000,
      withoutReplacement({ type: 'laplace', scale: 1 }),
    ],
    [
      'group k=4 of a subsampled discrete Gaussian σ=1 q=0.01',
      4,
      { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'discrete_gaussian', sigma: 1 } },
    ],
  ].map(([name, k, mechanism]) => ({
    name,
    request: {
      op: 'group',
      k,
      delta: 1e-5,
      mechanism,
      ...(mechanism.type === 'sampled_without_replacement' ? { relation: 'substitute' } : {}),
    },
    targetMilliseconds: 100,
  })),
);

// Several databases: closed forms ≤ 100 µs for any n and m; PLD with 10^4 databases of a
// Gaussian ≤ 100 ms; the uninformative prior by PLD for n = 1000 ≤ 200 ms.
const hospitalGuarantee = { type: 'approx', epsilon: 0.05, delta: 1e-9 };
const manyHospitals = (method, count, m, extra = {}) => ({
  op: 'databases',
  method,
  ...extra,
  databases: [{ guarantee: method === 'zcdp' ? { type: 'pure', epsilon: 0.05 } : hospitalGuarantee, count }],
  constraint: { type: 'at_most', m },
});
benchmarkRequests.push(
  { name: 'databases, basic, n=1e6, m=365', request: manyHospitals('basic', 1e6, 365), targetMicroseconds: 100 },
  {
    name: 'databases, advanced KOV, n=1e6, m=1e5, bounded',
    request: manyHospitals('advanced', 1e6, 1e5, { delta: 1e-3, neighbours: 'bounded' }),
    targetMicroseconds: 100,
  },
  {
    name: 'databases, advanced DRV, 3 unordered classes',
    request: {
      op: 'databases',
      method: 'advanced',
      variant: 'dwork_rothblum_vadhan',
      delta: 1e-4,
      databases: [
        { guarantee: { type: 'approx', epsilon: 0.3, delta: 1e-9 }, count: 1e4, queries: 2 },
        { guarantee: { type: 'pure', epsilon: 0.5 }, count: 1e4 },
        { guarantee: { type: 'approx', epsilon: 0.1, delta: 1e-8 }, count: 1e4, queries: 3 },
      ],
      constraint: { type: 'at_most', m: 365 },
    },
    targetMicroseconds: 100,
  },
  {
    name: 'databases, optimal, hospitals 1000 / 365',
    request: manyHospitals('optimal', 1000, 365, { delta: 1e-5 }),
    targetMicroseconds: 100,
  },
  {
    name: 'databases, optimal, n=1e6, m=365',
    request: manyHospitals('optimal', 1e6, 365, { delta: 0.01 }),
    targetMicroseconds: 100,
  },
  {
    name: 'databases, optimal, n=1e7 (its limit), m=1e6, bounded',
    request: {
      op: 'databases',
      method: 'optimal',
      delta: 1e-6,
      neighbours: 'bounded',
      databases: [{ guarantee: { type: 'pure', epsilon: 1e-4 }, count: 1e7 }],
      constraint: { type: 'at_most', m: 1e6 },
    },
    targetMicroseconds: 100,
  },
  {
    name: 'databases, zCDP, n=1e6, m=365',
    request: manyHospitals('zcdp', 1e6, 365, { delta: 1e-5 }),
    targetMicroseconds: 100,
  },
  {
    name: 'databases, uninformative, basic (Cor. 7), n=1e6',
    request: {
      op: 'databases',
      method: 'basic',
      adversary: 'uninformative',
      databases: [{ guarantee: { type: 'pure', epsilon: 1e-3 }, count: 1e6 }],
    },
    targetMicroseconds: 100,
  },
  {
    name: 'databases, uninformative, advanced KOV, n=1e6',
    request: {
      op: 'databases',
      method: 'advanced',
      delta: 1e-5,
      adversary: 'uninformative',
      databases: [{ guarantee: { type: 'approx', epsilon: 1e-3, delta: 1e-12 }, count: 1e6 }],
    },
    targetMicroseconds: 100,
  },
);
numericRequests.push(
  {
    name: 'databases, PLD, 1e4 Gaussian databases σ=100, at most 365',
    request: {
      op: 'databases',
      method: 'pld',
      delta: 1e-6,
      databases: [{ mechanism: { type: 'gaussian', sigma: 100 }, count: 1e4 }],
      constraint: { type: 'at_most', m: 365 },
    },
    targetMilliseconds: 100,
  },
  {
    name: 'databases, PLD, 1e4 Gaussian databases σ=100, no constraint',
    request: {
      op: 'databases',
      method: 'pld',
      delta: 1e-6,
      databases: [{ mechanism: { type: 'gaussian', sigma: 100 }, count: 1e4 }],
    },
    targetMilliseconds: 100,
  },
  {
    name: 'databases, PLD, uninformative prior, n=1000 Gaussians σ=30',
    request: {
      op: 'databases',
      method: 'pld',
      delta: 1e-6,
      adversary: 'uninformative',
      databases: [{ mechanism: { type: 'gaussian', sigma: 30 }, count: 1000 }],
    },
    targetMilliseconds: 200,
  },
);

// Group-wise relative error, timed like the numeric requests, with their time targets.
const groupCounts = [10, 100, 1000, 10000, 100000];
export const groupwiseRequests = [
  {
    name: 'groupwise_simulate, 10⁶ samples (Figure 1)',
    request: { op: 'groupwise_simulate', sigma: 10, relative_error: 0.3, count: 10000, samples: 1e6, seed: 1 },
    targetMilliseconds: 300,
  },
  {
    name: 'groupwise_privacy, 5 groups × 50 orders',
    request: { op: 'groupwise_privacy', rho: 0.005, relative_error: 0.3, counts: groupCounts },
    targetMilliseconds: 1000,
  },
  {
    name: 'groupwise_privacy, 5 groups × 50 orders, ε at δ = 1e-6',
    request: { op: 'groupwise_privacy', rho: 0.005, relative_error: 0.3, counts: groupCounts, delta: 1e-6 },
    targetMilliseconds: 1000,
  },
  {
    name: 'groupwise_plan, r = 0.1, x = 1000',
    request: { op: 'groupwise_plan', relative_error: 0.1, count: 1000 },
  },
];

// Selections and subsampled mechanisms of any inner mechanism: each at default accuracy within
// 100 ms warm for counts up to 1e4.
const pldCompose = (items, relation) => ({ op: 'compose', method: 'pld', delta: 1e-5, items, relation });
numericRequests.push(
  ...[1e2, 1e4].map((count) => ({
    name: `PLD, exponential mechanism ε=0.5 ×${count.toExponential(0)}`,
    request: pldCompose([{ mechanism: { type: 'exponential', epsilon: 0.5 }, count }]),
    targetMilliseconds: 100,
  })),
  ...[1e2, 1e4].map((count) => ({
    name: `PLD, Poisson-subsampled exponential ε=1 q=0.01 ×${count.toExponential(0)}`,
    request: pldCompose([
      { mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'exponential', epsilon: 1 } }, count },
    ]),
    targetMilliseconds: 100,
  })),
  ...[1e2, 1e4].map((count) => ({
    name: `PLD, Poisson-subsampled Laplace b=1 q=0.01 ×${count.toExponential(0)}`,
    request: pldCompose([
      { mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'laplace', scale: 1 } }, count },
    ]),
    targetMilliseconds: 100,
  })),
  ...[1e2, 1e4].map((count) => ({
    name: `PLD, Gaussian σ=1.1 on 256 of 60000 without replacement ×${count.toExponential(0)}`,
    request: pldCompose(
      [
        {
          mechanism: {
            type: 'sampled_without_replacement',
            dataset_size: 60000,
            sample_size: 256,
            mechanism: { type: 'gaussian', sigma: 1.1 },
          },
          count,
        },
      ],
      'substitute',
    ),
    targetMilliseconds: 100,
  })),
);
// Every mechanism of the catalog at default accuracy (each within 100 ms warm for counts up to 1e4),
// selections fixed in advance (non-adaptive bounded range), and a ledger of 20 different releases
// under substitution (within 300 ms).
const counted = (name, mechanism, relation, counts = [1e2, 1e4]) =>
  counts.map((count) => ({
    name: `PLD, ${name} ×${count.toExponential(0)}`,
    request: pldCompose([{ mechanism, count }], relation),
    targetMilliseconds: 100,
  }));
const ledgerRows = [
  ...[4, 5, 6].map((sigma) => ({ mechanism: { type: 'discrete_gaussian', sigma, sensitivity: 1 }, count: 12 })),
  { mechanism: { type: 'exponential', epsilon: 0.5 }, count: 1 },
  { mechanism: { type: 'exponential', epsilon: 0.2, adaptive: false }, count: 20 },
  ...[0.5, 0.75].map((p) => ({
    mechanism: { type: 'randomized_response', noise_parameter: p, num_buckets: 2 },
    count: 365,
  })),
  { mechanism: { type: 'randomized_response', noise_parameter: 0.9, num_buckets: 10 }, count: 52 },
  ...[2, 3].map((scale) => ({ mechanism: { type: 'discrete_laplace', scale, sensitivity: 1 }, count: 30 })),
  ...[5, 10].map((scale) => ({ mechanism: { type: 'laplace', scale }, count: 10 })),
  ...[2, 8].map((sigma) => ({ mechanism: { type: 'gaussian', sigma }, count: 100 })),
  { mechanism: { type: 'permute_and_flip', epsilon: 0.3 }, count: 10 },
  { mechanism: { type: 'discrete_gaussian', sigma: 8, sensitivity: 2 }, count: 12 },
  ...[256, 512].map((sample_size) => ({
    mechanism: {
      type: 'sampled_without_replacement',
      dataset_size: 60000,
      sample_size,
      mechanism: { type: 'gaussian', sigma: 1.1 },
    },
    count: 1000,
  })),
  {
    mechanism: {
      type: 'sampled_without_replacement',
      dataset_size: 60000,
      sample_size: 600,
      mechanism: { type: 'laplace', scale: 1 },
    },
    count: 100,
  },
  { mechanism: { type: 'discrete_gaussian', sigma: 2, sensitivity: 3 }, count: 4 },
];
numericRequests.push(
  ...counted('discrete Gaussian σ=5', { type: 'discrete_gaussian', sigma: 5, sensitivity: 1 }),
  ...counted('discrete Laplace b=1', { type: 'discrete_laplace', scale: 1, sensitivity: 1 }),
  ...counted(
    'randomized response p=0.5 k=2',
    { type: 'randomized_response', noise_parameter: 0.5, num_buckets: 2 },
    'substitute',
  ),
  ...counted('permute-and-flip ε=0.5', { type: 'permute_and_flip', epsilon: 0.5 }),
  ...counted('tree aggregation σ=10, 1000 steps', { type: 'tree_aggregation', noise_multiplier: 10, steps: 1000 }),
  ...counted(
    'exponential ε=0.5 fixed in advance',
    { type: 'exponential', epsilon: 0.5, adaptive: false },
    undefined,
    [20, 500],
  ),
  {
    name: `PLD, ledger of ${ledgerRows.length} different releases (substitute)`,
    request: pldCompose(ledgerRows, 'substitute'),
    targetMilliseconds: 300,
  },
);
// The numeric workloads compared with dp_accounting (tests/bench/dp_accounting_workloads.py runs the
// same ones there): `request(discretization)` builds the request at a given accuracy (undefined:
// the default, relative accuracy 5e-4). The group DP-SGD request passes `discretization` to the
// dpsgd op, which reports whether it applied it (the bracket width shows it).
export const comparedWorkloads = [
  {
    key: 'dpsgd',
    name: 'DP-SGD σ=1, q=0.01, T=10⁴',
    // The engine against one native numpy rfft, complex power and irfft at dp_accounting's grid for
    // this workload (its composition of 260,785 points, 2^18 as a power of two), timed in the same
    // run; dpcalc at relative accuracy 1e-5 (scripts/bench_dp_accounting.mjs).
    numpyPipeline: { size: 2 ** 18, power: 1e4, accuracy: 1e-5 },
    request: (discretization) => ({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: subsampledGaussian(1, 0.01), count: 1e4 }],
      ...(discretization && { discretization }),
    }),
  },
  {
    key: 'laplace',
    name: 'Laplace b=10, 1000 times',
    request: (discretization) => ({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'laplace', scale: 10 }, count: 1000 }],
      ...(discretization && { discretization }),
    }),
  },
  {
    key: 'gaussians',
    name: '50 Gaussians σ=20…69',
    request: (discretization) => ({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: Array.from({ length: 50 }, (_, i) => ({ mechanism: { type: 'gaussian', sigma: 20 + i }, count: 1 })),
      ...(discretization && { discretization }),
    }),
  },
  {
    key: 'group_dpsgd',
    name: 'group DP-SGD k=16, σ=2, N=60000, B=256, T=16384',
    request: (discretization) =>
      dpsgd({
        group_size: 16,
        noise_multiplier: 2,
        steps: 16384,
        ...(discretization && { discretization }),
      }),
  },
];

// The trade-off of an answer (op 'tradeoff'): of a closed-form answer within the closed-form budget of
// the page (a keystroke; it computes a curve of about 250 points, so 1 ms rather than the 50 µs of one
// number); of a numeric answer at most 10% on top of that answer, asked with explain: true (tradeoffPairs: bench.mjs prints both).
benchmarkRequests.push(
  {
    name: 'tradeoff, group of an (ε, δ) guarantee',
    request: { op: 'tradeoff', of: { op: 'group', k: 8, guarantee: approx }, fpr: [1e-3], prior: 0.5 },
    targetMicroseconds: 1000,
  },
  {
    name: 'tradeoff, Gaussian composition (μ-GDP)',
    request: {
      op: 'tradeoff',
      of: {
        op: 'compose',
        method: 'zcdp',
        delta: 1e-5,
        items: [{ mechanism: { type: 'gaussian', sigma: 20 }, count: 100 }],
      },
      fpr: [1e-3],
      prior: 0.5,
    },
    targetMicroseconds: 1000,
  },
  {
    name: 'tradeoff, zCDP guarantee (its privacy profile)',
    request: { op: 'tradeoff', of: { guarantee: { type: 'zcdp', rho: 0.5 } }, fpr: [1e-3], prior: 0.5 },
    targetMicroseconds: 1000,
  },
);
export const tradeoffPairs = [
  {
    name: 'PLD, subsampled Gaussian σ=1 q=0.01 T=1e4',
    answer: {
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: subsampledGaussian(1, 0.01), count: 1e4 }],
    },
  },
  { name: 'dpsgd k=5 σ=2 T=16384', answer: dpsgd({ group_size: 5, noise_multiplier: 2, steps: 16384 }) },
  {
    // Two Laplace classes, more queries on the noisier one: not ordered, 4 footprints can be the worst.
    name: 'databases PLD, Laplace b=10 ×100 and b=5 ×20 queries, at most 3 of 2×10 databases',
    answer: {
      op: 'databases',
      method: 'pld',
      delta: 1e-5,
      databases: [
        { mechanism: { type: 'laplace', scale: 10 }, count: 10, queries: 100 },
        { mechanism: { type: 'laplace', scale: 5 }, count: 10, queries: 20 },
      ],
      constraint: { type: 'at_most', m: 3 },
    },
  },
];

// Solving for an unknown (docs/API.md): each evaluation is a forward request, so a solve costs its
// evaluations (about 2 log2 of the answer) times one forward answer.
export const solveRequests = [
  {
    name: 'dpsgd, most steps within ε = 3 (q = 0.01, σ = 1, δ = 1e-5)',
    request: {
      op: 'dpsgd',
      unknown: 'steps',
      sampling: 'poisson',
      sampling_rate: 0.01,
      group_size: 1,
      noise_multiplier: 1,
      delta: 1e-5,
      target: { epsilon: 3 },
    },
  },
  {
    name: 'compose optimal, most releases of ε = 0.01 within (1, 1e-5)',
    request: {
      op: 'compose',
      method: 'optimal',
      unknown: 'count',
      items: [{ guarantee: { type: 'pure', epsilon: 0.01 } }],
      target: { epsilon: 1, delta: 1e-5 },
    },
  },
];
