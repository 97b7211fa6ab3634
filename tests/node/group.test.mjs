// op 'group' through the built JS API. Expected values: the closed forms evaluated with mpmath at 40
// digits (Vadhan 2017 Lemma 2.2; Bun & Steinke 2016 Prop 1.9; Balle & Wang 2018 Thm 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

test('pure DP: k·ε', () => {
  const result = okResult(calc.compute({ op: 'group', k: 8, guarantee: { type: 'pure', epsilon: 0.25 } }));
  assert.deepEqual(result.guarantee, { type: 'pure', epsilon: 2 });
  assert.match(result.citation, /\d{4}/);
  assert.ok(result.method.length > 0);
});

test('approximate DP: (kε, δ(e^{kε}−1)/(e^ε−1))', () => {
  const result = okResult(calc.compute({ op: 'group', k: 4, guarantee: { type: 'approx', epsilon: 1, delta: 1e-6 } }));
  assert.equal(result.guarantee.type, 'approx');
  assertClose(result.guarantee.epsilon, 4, 1e-15, 'epsilon');
  assertClose(result.guarantee.delta, 3.119287485057736e-5, 1e-12, 'delta'); // mpmath
  assert.notEqual(result.vacuous, true);
});

test('approximate DP with kε in the thousands is vacuous, not Infinity', () => {
  const result = okResult(
    calc.compute({ op: 'group', k: 5000, guarantee: { type: 'approx', epsilon: 1, delta: 1e-300 } }),
  );
  assert.equal(result.vacuous, true);
  assert.equal(result.guarantee.delta, 1);
  assert.equal(result.guarantee.epsilon, 5000);
});

test('zCDP: k²ρ', () => {
  const result = okResult(calc.compute({ op: 'group', k: 3, guarantee: { type: 'zcdp', rho: 0.1 } }));
  assert.equal(result.guarantee.type, 'zcdp');
  assertClose(result.guarantee.rho, 0.9, 1e-15, 'rho');
});

test('Laplace mechanism: kΔ/b', () => {
  const result = okResult(
    calc.compute({ op: 'group', k: 3, mechanism: { type: 'laplace', scale: 2, sensitivity: 1 } }),
  );
  assert.deepEqual(result.guarantee, { type: 'pure', epsilon: 1.5 });
});

test('Gaussian mechanism: exact ε at sensitivity kΔ and ρ = (kΔ)²/2σ²', () => {
  const result = okResult(
    calc.compute({ op: 'group', k: 2, delta: 1e-5, mechanism: { type: 'gaussian', sigma: 2, sensitivity: 1 } }),
  );
  assert.equal(result.guarantee.type, 'approx');
  assert.equal(result.guarantee.delta, 1e-5);
  // Balle & Wang 2018 at mu = kΔ/σ = 1, delta 1e-5: 4.3771780956812246 (mpmath); an upper bound.
  assert.ok(result.guarantee.epsilon >= 4.377178095681224);
  assertClose(result.guarantee.epsilon, 4.377178095681225, 1e-9, 'epsilon');
  assertClose(result.zcdp.rho, 0.5, 1e-15, 'rho');
});

test('k = 1 is the identity', () => {
  const guarantee = { type: 'approx', epsilon: 0.7, delta: 1e-7 };
  const result = okResult(calc.compute({ op: 'group', k: 1, guarantee }));
  assertClose(result.guarantee.epsilon, 0.7, 1e-15, 'epsilon');
  assertClose(result.guarantee.delta, 1e-7, 1e-12, 'delta');
});

test('invalid inputs name their field', () => {
  const approx = { type: 'approx', epsilon: 1, delta: 1e-6 };
  assertError(calc.compute({ op: 'group', k: 2.5, guarantee: approx }), 'k');
  assertError(calc.compute({ op: 'group', k: 0, guarantee: approx }), 'k');
  assertError(calc.compute({ op: 'group', k: '3', guarantee: approx }), 'k');
  assertError(
    calc.compute({ op: 'group', k: 2, guarantee: { type: 'approx', epsilon: 1, delta: 1 } }),
    'guarantee.delta',
  );
  assertError(
    calc.compute({ op: 'group', k: 2, guarantee: { type: 'approx', epsilon: -1, delta: 0 } }),
    'guarantee.epsilon',
  );
  assertError(
    calc.compute({ op: 'group', k: 2, guarantee: { type: 'approx', epsilon: NaN, delta: 0 } }),
    'guarantee.epsilon',
  );
  assertError(calc.compute({ op: 'group', k: 2, guarantee: { type: 'pure', epsilon: Infinity } }), 'guarantee.epsilon');
  assertError(calc.compute({ op: 'group', k: 2, guarantee: { type: 'zcdp', rho: -0.1 } }), 'guarantee.rho');
  assertError(
    calc.compute({ op: 'group', k: 2, mechanism: { type: 'gaussian', sigma: 0 }, delta: 1e-5 }),
    'mechanism.sigma',
  );
  assertError(calc.compute({ op: 'group', k: 2, mechanism: { type: 'laplace', scale: -1 } }), 'mechanism.scale');
  assertError(calc.compute({ op: 'group', k: 2 ** 60, guarantee: approx }), 'k');
});

test("a subsampled Gaussian's group has no closed form: the error names op 'dpsgd', which composes it", () => {
  const mechanism = { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1 } };
  const refused = calc.compute({ op: 'group', k: 4, mechanism, delta: 1e-5 });
  assertError(refused, 'mechanism.type', 'unsupported');
  assert.match(refused.error.message, /op 'dpsgd'.*group_size/);
  // The request the message points to answers for the same group and release.
  const dpsgd = okResult(
    calc.compute({
      op: 'dpsgd',
      sampling: 'poisson',
      sampling_rate: 0.01,
      noise_multiplier: 1,
      steps: 1,
      group_size: 4,
      delta: 1e-5,
    }),
  );
  assert.ok(dpsgd.guarantee.epsilon > 0 && Number.isFinite(dpsgd.guarantee.epsilon));
});
