// Group-wise relative error (Algorithm 1 of Pujol & Desfontaines 2023) through the built JS API.
// Reference values: exact moments of Y (E Y = x, Var Y = σ² + r²(x² + σ²), law of total variance);
// theory bounds (post-processing: D_α/α <= ρ; ε(δ) <= the zCDP conversion of Canonne, Kamath,
// Steinke 2020, Cor 13). The numbers of the estimate itself are checked natively against mpmath
// (tests/core/groupwise_*_test.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

test('groupwise_simulate reproduces Figure 1 of Pujol & Desfontaines (2023) within sampling error', () => {
  const request = {
    op: 'groupwise_simulate',
    sigma: 10,
    relative_error: 0.3,
    count: 10000,
    samples: 1e6,
    seed: 20220101,
  };
  const result = okResult(calc.compute(request));
  const exactSd = Math.sqrt(100 + 0.09 * (1e8 + 100));
  assert.equal(result.samples, 1e6);
  // Standard errors: sd/√n ≈ 3 for the mean, sd·sqrt((κ − 1)/(4n)) <= 2.6 for the sd (κ <= 4).
  assert.ok(Math.abs(result.mean - 10000) <= (4 * exactSd) / 1000, `mean ${result.mean}`);
  assert.ok(Math.abs(result.sd - exactSd) <= 4 * exactSd * Math.sqrt(3 / 4e6), `sd ${result.sd}`);
  assertClose(result.exact.sd, exactSd, 1e-15, 'exact sd');
  assert.equal(result.histogram.edges.length, 101);
  assert.equal(result.histogram.counts.length, 100);
  assert.equal(
    result.histogram.counts.reduce((a, b) => a + b, 0) + result.histogram.below + result.histogram.above,
    1e6,
  );
  assert.equal(result.fit.mean, result.mean);
  assertClose(result.fit.sd, result.sd * Math.sqrt((1e6 - 1) / 1e6), 1e-14, 'fit sd');
  assert.equal(result.fit.counts.length, 100);
  assert.ok(Math.abs(result.mean_relative_error - result.exact.mean_relative_error) <= (4 * exactSd) / 1000 / 10000);
  // The same seed gives the same samples; rho = 1/(2σ²) is the same mechanism.
  const again = okResult(calc.compute({ ...request, sigma: undefined, rho: 0.005 }));
  assert.equal(again.mean, result.mean);
  assert.deepEqual(again.histogram.counts, result.histogram.counts);
});

test('groupwise_simulate: bins and range choose the grid; count 0 has no relative error', () => {
  const result = okResult(
    calc.compute({
      op: 'groupwise_simulate',
      rho: 0.5,
      relative_error: 1,
      count: 0,
      samples: 1000,
      bins: 10,
      range: [-5, 5],
    }),
  );
  assert.deepEqual(result.histogram.edges, [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5]);
  assert.equal(result.mean_relative_error, null);
  assert.ok(result.mean_absolute_error > 0);
});

test('groupwise_privacy: estimates per group below the proven ρ, labelled as estimates', () => {
  const result = okResult(
    calc.compute({ op: 'groupwise_privacy', rho: 0.005, relative_error: 0.3, counts: [10, 1000, 100000], delta: 1e-6 }),
  );
  assert.match(result.label, /numerical estimate, not a proof/i);
  assert.equal(result.proven.rho, 0.005);
  assert.ok(result.proven.epsilon > 0);
  assert.equal(result.groups.length, 3);
  let previous = Infinity;
  for (const group of result.groups) {
    assert.equal(group.renyi.orders.length, 50);
    assert.equal(group.renyi.epsilons.length, 50);
    assert.equal(group.renyi.orders[0], 1.01);
    assert.equal(group.renyi.orders[49], 256);
    const maxOverOrders = Math.max(...group.renyi.epsilons.map((e, i) => e / group.renyi.orders[i]));
    assert.equal(group.rho_estimate, maxOverOrders);
    assert.ok(group.rho_estimate <= result.proven.rho + group.error_estimate);
    assert.ok(group.rho_estimate < previous, 'larger groups, smaller estimate');
    previous = group.rho_estimate;
    assert.ok(group.epsilon_estimate <= result.proven.epsilon);
    assert.ok(group.error_estimate >= 0 && group.error_estimate < 1e-3 * 0.005);
    assert.ok(group.expected_relative_error > 0);
  }
  // E|Y − x|/x → r sqrt(2/π) for large groups (σ ≪ r x).
  assertClose(result.groups[2].expected_relative_error, 0.3 * Math.sqrt(2 / Math.PI), 1e-4, 'large group');
});

test('groupwise_privacy: chosen orders, no delta, progress and cancel', () => {
  const fractions = [];
  const response = calc.compute(
    { op: 'groupwise_privacy', sigma: 10, relative_error: 0.3, counts: [100], orders: [2, 8, 32] },
    {
      onProgress: (fraction) => {
        fractions.push(fraction);
      },
    },
  );
  const result = okResult(response);
  assert.deepEqual(result.groups[0].renyi.orders, [2, 8, 32]);
  assert.equal(result.groups[0].epsilon_estimate, undefined);
  assert.equal(result.proven.epsilon, undefined);
  assert.ok(fractions.length > 3 && fractions.every((f) => f >= 0 && f <= 1));
  const cancelled = calc.compute(
    { op: 'groupwise_privacy', sigma: 10, relative_error: 0.3, counts: [100, 1000] },
    { onProgress: (fraction) => fraction < 0.2 },
  );
  assertError(cancelled, '', 'cancelled');
});

test('groupwise_plan: the largest noise that keeps E|Y − x| <= r x, and its estimate', () => {
  const result = okResult(calc.compute({ op: 'groupwise_plan', relative_error: 0.1, count: 1000, delta: 1e-6 }));
  assert.ok(result.expected_relative_error <= 0.1 && result.expected_relative_error > 0.1 * (1 - 1e-9));
  assertClose(result.rho, 1 / (2 * result.sigma ** 2), 1e-12, 'rho');
  assert.equal(result.group.count, 1000);
  assert.ok(result.group.rho_estimate <= result.rho + result.group.error_estimate);
  assert.match(result.label, /numerical estimate/i);
});

test('groupwise: invalid input names the field', () => {
  const base = { op: 'groupwise_privacy', rho: 0.005, relative_error: 0.3, counts: [10] };
  assertError(calc.compute({ ...base, rho: 0 }), 'rho');
  assertError(calc.compute({ ...base, rho: -1 }), 'rho');
  assertError(calc.compute({ ...base, sigma: 3 }), 'sigma');
  assertError(calc.compute({ ...base, rho: undefined }), 'rho');
  assertError(calc.compute({ ...base, relative_error: 0 }), 'relative_error');
  assertError(calc.compute({ ...base, relative_error: 1.5 }), 'relative_error');
  assertError(calc.compute({ ...base, counts: [10, 100, 2.5] }), 'counts.2');
  assertError(calc.compute({ ...base, counts: [-1] }), 'counts.0');
  assertError(calc.compute({ ...base, counts: ['7'] }), 'counts.0');
  assertError(calc.compute({ ...base, counts: [] }), 'counts');
  assertError(calc.compute({ ...base, delta: 1 }), 'delta');
  assertError(calc.compute({ ...base, orders: [2, 1] }), 'orders.1');
  assertError(calc.compute({ ...base, orders: [300] }), 'orders.0');
  const simulate = { op: 'groupwise_simulate', rho: 0.005, relative_error: 0.3, count: 10, samples: 1000 };
  assertError(calc.compute({ ...simulate, samples: 1e7 + 1 }), 'samples');
  assertError(calc.compute({ ...simulate, samples: 10.5 }), 'samples');
  assertError(calc.compute({ ...simulate, bins: 0 }), 'bins');
  assertError(calc.compute({ ...simulate, bins: 10001 }), 'bins');
  assertError(calc.compute({ ...simulate, count: 0.5 }), 'count');
  assertError(calc.compute({ ...simulate, seed: -1 }), 'seed');
  assertError(calc.compute({ ...simulate, range: [5, 1] }), 'range');
  assertError(calc.compute({ op: 'groupwise_plan', relative_error: 0.1, count: 0 }), 'count');
});
