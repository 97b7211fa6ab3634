// Numeric composition (method 'pld', op 'profile') through the built JS API.
// References: dp_accounting 0.6.0 (google/differential-privacy, PLD accountant, pessimistic,
// connect-the-dots, value_discretization_interval 1e-4, max over add/remove) run from source, the
// rows of /work/shared/references/public_values.json, and the exact Gaussian (Balle & Wang 2018,
// mpmath at 40 digits). Default settings; tolerance 0.5% or 5e-4 absolute, whichever is larger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const subsampledGaussian = (sigma, rate) => ({ type: 'poisson_subsampled', rate, mechanism: { type: 'gaussian', sigma, sensitivity: 1 } });

function assertNear(actual, expected, label) {
  const allowed = Math.max(0.005 * Math.abs(expected), 5e-4);
  assert.ok(Math.abs(actual - expected) <= allowed, `${label}: ${actual} vs reference ${expected} (allowed ±${allowed})`);
}

test('DP-SGD (Poisson-subsampled Gaussian) against dp_accounting', () => {
  const rows = [
    // [sigma, q, steps, delta, reference epsilon]
    [1.1, 0.004266666666666667, 1000, 1e-5, 0.5987026623130971],   // public_values.json
    [1.1, 0.004266666666666667, 16384, 1e-5, 2.5902967307391584],  // public_values.json
    [1.1, 0.01, 1000, 1e-5, 1.515370248221417],                    // public_values.json
    [1.1, 0.01, 16384, 1e-5, 6.89917732630333],                    // public_values.json
    [1.0, 0.01, 10000, 1e-5, 6.187745],                            // dp_accounting, step 1e-4
    [0.5, 0.1, 16384, 1e-5, 1208.4436],                            // dp_accounting, step 1e-4
    [4.0, 0.001, 1, 1e-5, 4.39366e-4],                             // dp_accounting, step 1e-4
  ];
  for (const [sigma, rate, count, delta, expected] of rows) {
    const result = okResult(calc.compute({ op: 'compose', method: 'pld', delta, items: [{ mechanism: subsampledGaussian(sigma, rate), count }] }));
    const label = `σ=${sigma} q=${rate} T=${count}`;
    assertNear(result.guarantee.epsilon, expected, label);
    assert.equal(result.guarantee.epsilon, result.epsilon_upper);
    assert.ok(result.epsilon_lower <= result.epsilon_upper, `${label}: lower ≤ upper`);
    assert.equal(result.guarantee.delta, delta);
    assert.ok(result.discretization > 0 && result.grid_size > 0 && result.truncated_mass >= 0);
  }
});

test('a Gaussian composed T times is the Gaussian with σ/√T: upper ≥ exact ≥ lower, upper within 0.1%', () => {
  // Balle & Wang 2018 at μ = √T/σ (mpmath, 40 digits)
  for (const [sigma, count, delta, exact] of [[10, 100, 1e-5, 4.377178095681225], [2, 1, 1e-6, 2.2540846502197409]]) {
    const result = okResult(calc.compute({ op: 'compose', method: 'pld', delta, items: [{ mechanism: { type: 'gaussian', sigma }, count }] }));
    assert.ok(result.epsilon_upper >= exact, `upper ${result.epsilon_upper} below exact ${exact}`);
    assert.ok(result.epsilon_lower <= exact, `lower ${result.epsilon_lower} above exact ${exact}`);
    assertClose(result.epsilon_upper, exact, 1e-3, `σ=${sigma}, T=${count}`);
  }
});

test('pure items match the exact optimal composition (Kairouz–Oh–Viswanath 2015 Thm 3.3)', () => {
  const items = [{ guarantee: { type: 'pure', epsilon: 0.1 }, count: 100 }];
  const pld = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items }));
  const optimal = okResult(calc.compute({ op: 'compose', method: 'optimal', delta: 1e-5, items }));
  assertClose(pld.epsilon_upper, 4.306791372516507, 1e-6, 'pld vs public_values.json');
  assertClose(pld.epsilon_upper, optimal.guarantee.epsilon, 1e-6, 'pld vs optimal');
});

test('δ for a given ε, and the privacy profile, bracket from both sides', () => {
  const items = [{ mechanism: { type: 'laplace', scale: 10 }, count: 100 }];
  const single = okResult(calc.compute({ op: 'compose', method: 'pld', epsilon: 4.220347, items }));
  // dp_accounting: Laplace b=10, T=100 has ε = 4.220347 at δ = 1e-5
  assert.ok(single.delta_lower <= single.delta_upper);
  assertClose(single.delta_upper, 1e-5, 0.05, 'delta at the reference epsilon');
  const profile = okResult(calc.compute({ op: 'profile', items, epsilons: [0, 1, 2, 4.220347, 8] }));
  assert.deepEqual(profile.epsilons, [0, 1, 2, 4.220347, 8]);
  for (let i = 0; i < 5; i++) assert.ok(profile.delta_lower[i] <= profile.delta_upper[i]);
  for (let i = 1; i < 5; i++) assert.ok(profile.delta_upper[i] <= profile.delta_upper[i - 1], 'δ(ε) decreases');
});

test('heterogeneous (ε, δ) items are bracketed and say so', () => {
  const result = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-4, items: [
    { guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-6 }, count: 10 }, { guarantee: { type: 'pure', epsilon: 0.1 }, count: 50 }] }));
  assert.match(result.note, /Murtagh/);
  const basic = okResult(calc.compute({ op: 'compose', method: 'basic', items: [
    { guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-6 }, count: 10 }, { guarantee: { type: 'pure', epsilon: 0.1 }, count: 50 }] }));
  assert.ok(result.epsilon_upper < basic.guarantee.epsilon);
});

test('a Gaussian mixture with one component equals the Gaussian', () => {
  const mixture = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: { type: 'gaussian_mixture', sigma: 2, shifts: [1], weights: [1] }, count: 10 }] }));
  const gaussian = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: { type: 'gaussian', sigma: 2 }, count: 10 }] }));
  assertClose(mixture.epsilon_upper, gaussian.epsilon_upper, 1e-3, 'mixture vs gaussian');
});

test('errors: unreachable δ, bad mechanisms, bad discretization', () => {
  const unreachable = calc.compute({ op: 'compose', method: 'pld', delta: 1e-6, items: [{ guarantee: { type: 'approx', epsilon: 0.1, delta: 1e-6 }, count: 10 }] });
  assertError(unreachable, 'delta');
  assert.match(unreachable.error.message, /9\.99.*the smallest delta/);
  assertError(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: subsampledGaussian(1, 1.5), count: 10 }] }), 'items.0.mechanism.rate');
  assertError(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: { type: 'gaussian', sigma: -1 }, count: 10 }] }), 'items.0.mechanism.sigma');
  assertError(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 10 }], discretization: -1 }), 'discretization');
  assertError(calc.compute({ op: 'compose', method: 'pld', items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 10 }] }), 'delta');
  assertError(calc.compute({ op: 'profile', items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 10 }], epsilons: [1, NaN] }), 'epsilons.1');
});
