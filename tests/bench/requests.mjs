// The requests `npm run bench` times, with the target the issue sets for each.
const approx = { type: 'approx', epsilon: 1, delta: 1e-6 };
const pure = { type: 'pure', epsilon: 0.1 };

export const benchmarkRequests = [
  { name: 'group, pure', request: { op: 'group', k: 8, guarantee: { type: 'pure', epsilon: 1 } }, targetMicroseconds: 50 },
  { name: 'group, approx', request: { op: 'group', k: 8, guarantee: approx }, targetMicroseconds: 50 },
  { name: 'group, zCDP', request: { op: 'group', k: 8, guarantee: { type: 'zcdp', rho: 0.1 } }, targetMicroseconds: 50 },
  { name: 'group, Laplace', request: { op: 'group', k: 8, mechanism: { type: 'laplace', scale: 1 } }, targetMicroseconds: 50 },
  { name: 'group, Gaussian (analytic)', request: { op: 'group', k: 8, delta: 1e-6, mechanism: { type: 'gaussian', sigma: 4 } }, targetMicroseconds: 50 },
  { name: 'compose, basic', request: { op: 'compose', method: 'basic', items: [{ guarantee: approx, count: 100 }] }, targetMicroseconds: 50 },
  { name: 'compose, parallel', request: { op: 'compose', method: 'parallel', items: [{ guarantee: approx, count: 100 }] }, targetMicroseconds: 50 },
  { name: 'compose, advanced DRV (δ\')', request: { op: 'compose', method: 'advanced', variant: 'dwork_rothblum_vadhan', delta_slack: 1e-6, items: [{ guarantee: pure, count: 100 }] }, targetMicroseconds: 50 },
  { name: 'compose, advanced KOV (total δ)', request: { op: 'compose', method: 'advanced', variant: 'kairouz', delta: 1e-5, items: [{ guarantee: pure, count: 100 }] }, targetMicroseconds: 50 },
  { name: 'compose, optimal k=100', request: { op: 'compose', method: 'optimal', delta: 1e-5, items: [{ guarantee: pure, count: 100 }] }, targetMicroseconds: 50 },
  { name: 'compose, optimal k=1e5, kε₀=1e3', request: { op: 'compose', method: 'optimal', delta: 1e-5, items: [{ guarantee: { type: 'pure', epsilon: 0.01 }, count: 100000 }] }, targetMicroseconds: 50000 },
  { name: 'compose, zCDP → (ε, δ)', request: { op: 'compose', method: 'zcdp', delta: 1e-6, items: [{ guarantee: { type: 'zcdp', rho: 0.01 }, count: 50 }] }, targetMicroseconds: 50 },
  { name: 'convert, zCDP → (ε, δ) CKS', request: { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6 }, targetMicroseconds: 50 },
  { name: 'split, basic', request: { op: 'split', method: 'basic', target: { epsilon: 1, delta: 1e-5 }, count: 100 }, targetMicroseconds: 50 },
  { name: 'split, advanced KOV', request: { op: 'split', method: 'advanced', variant: 'kairouz', target: { epsilon: 1, delta: 1e-5 }, count: 100 }, targetMicroseconds: 50 },
  { name: 'split, zCDP', request: { op: 'split', method: 'zcdp', target: { epsilon: 1, delta: 1e-5 }, count: 100 }, targetMicroseconds: 50 },
];

// Numeric (PLD) requests, timed once each in wasm, with the targets.
const subsampledGaussian = (sigma, rate) => ({ type: 'poisson_subsampled', rate, mechanism: { type: 'gaussian', sigma } });
export const numericRequests = [
  ...[1e2, 1e3, 1e4, 1e5, 1e6].map((count) => ({
    name: `PLD, subsampled Gaussian σ=1 q=0.01 T=${count.toExponential(0)}`,
    request: { op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: subsampledGaussian(1, 0.01), count }] },
    targetMilliseconds: count === 1e4 ? 100 : undefined,
  })),
  {
    name: 'PLD, 50 different Gaussians σ = 20…69',
    request: { op: 'compose', method: 'pld', delta: 1e-5, items: Array.from({ length: 50 }, (_, i) => ({ mechanism: { type: 'gaussian', sigma: 20 + i }, count: 1 })) },
    targetMilliseconds: 100,
  },
];

// Group-wise relative error (issue 10), timed like the numeric requests, with the targets.
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
