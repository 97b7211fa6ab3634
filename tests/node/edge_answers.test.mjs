// Answers at the edges the peers accept, through the built JS API: compositions that reveal
// nothing, δ(ε) below ε = 0, the label on lower ends that bound dominating pairs only, the group of
// discrete Gaussian noise from its exact pair, tree aggregation at 2^53 steps, and a request whose
// op is misspelt. Expected values (each the source beside it): tests/reference/
// negative_epsilon_reference.py, discrete_mechanisms_reference.py and bounded_range_reference.py
// (mpmath).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

/** exact within the bracket [lower, upper], upper within `relative` of it. */
function assertBracket(lower, upper, exact, relative, label) {
  assert.ok(lower <= exact, `${label}: lower ${lower} above ${exact}`);
  assert.ok(upper >= exact, `${label}: upper ${upper} below ${exact}`);
  assert.ok(upper <= exact * (1 + relative), `${label}: upper ${upper} more than ${relative} above ${exact}`);
}

test('randomized response with p = 1, 2^53 times, reveals nothing: ε = 0', () => {
  const items = [{ mechanism: { type: 'randomized_response', noise_parameter: 1, num_buckets: 2 }, count: 2 ** 53 }];
  const result = okResult(calc.compute({ op: 'compose', method: 'pld', relation: 'substitute', delta: 1e-5, items }));
  assert.equal(result.guarantee.epsilon, 0);
  assert.equal(result.epsilon_lower, 0);
  assert.match(result.method, /reveals nothing/);
  const atEpsilon = okResult(calc.compute({ op: 'compose', method: 'pld', relation: 'substitute', epsilon: 1, items }));
  assert.equal(atEpsilon.delta_upper, 0);
});

test('δ(ε) below 0: Laplace b = 1 at ε = −0.5 is 1 − e^{−0.75}, a Gaussian μ = 1 at −0.5 is 0.538', () => {
  const laplace = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      epsilon: -0.5,
      items: [{ mechanism: { type: 'laplace', scale: 1 }, count: 1 }],
    }),
  );
  assertBracket(laplace.delta_lower, laplace.delta_upper, 0.5276334472589853, 0.01, 'Laplace'); // negative_epsilon_reference.py
  const gaussian = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      epsilon: -0.5,
      items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 1 }],
    }),
  );
  assertBracket(gaussian.delta_lower, gaussian.delta_upper, 0.5380794162122262, 1e-9, 'Gaussian'); // same script
  assertError(
    calc.compute({
      op: 'profile',
      items: [{ mechanism: { type: 'laplace', scale: 1 }, count: 1 }],
      epsilons: [Infinity],
    }),
    'epsilons.0',
  );
});

test("the exponential mechanism's lower end under pld is labelled a bound on its dominating pair", () => {
  const one = [{ mechanism: { type: 'exponential', epsilon: 0.5 }, count: 1 }];
  // At δ = 1e-8 the pairs' composition (ε ≈ 0.49999597) is below the Rényi and zCDP routes.
  const single = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-8, items: one }));
  assert.equal(single.lower_bound_of, 'dominating_pairs');
  assert.match(single.note, /dominating pairs/);
  assert.equal(single.capped_by, undefined);
  // 100 selections: zCDP (Canonne, Kamath, Steinke 2020, Cor 13) gives 14.130547455510717
  // (bounded_range_reference.py), below the pairs' composition: it caps the PLD, which then claims no
  // lower end (the pairs' is not one for the mechanism).
  const items = [{ mechanism: { type: 'exponential', epsilon: 0.5 }, count: 100 }];
  const pld = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items }));
  const zcdp = okResult(calc.compute({ op: 'compose', method: 'zcdp', delta: 1e-5, items }));
  const rdp = okResult(calc.compute({ op: 'compose', method: 'rdp', delta: 1e-5, items }));
  assert.ok(zcdp.approx.epsilon >= 14.130547455510717 && zcdp.approx.epsilon <= 14.1305474556);
  const best = Math.min(zcdp.approx.epsilon, rdp.guarantee.epsilon);
  assert.equal(pld.guarantee.epsilon, best);
  assert.equal(pld.capped_by, best === rdp.guarantee.epsilon ? 'rdp' : 'zcdp');
  assert.equal(pld.epsilon_lower, 0);
  assert.equal(pld.lower_bound_of, undefined);
  assert.match(pld.note, /caps it/);
  const laplace = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'laplace', scale: 1 }, count: 1 }],
    }),
  );
  assert.equal(laplace.lower_bound_of, undefined);
});

test('a group of discrete Gaussian noise is its exact pair at kΔ', () => {
  // discrete_mechanisms_reference.py: σ = 1, δ = 1e-6: k = 1 4.4995909821943769, k = 2 10.895232260922057
  // (the zCDP route gave 5.22 and 11.69).
  for (const [k, exact] of [
    [1, 4.4995909821943769],
    [2, 10.895232260922057],
  ]) {
    const result = okResult(
      calc.compute({ op: 'group', k, delta: 1e-6, mechanism: { type: 'discrete_gaussian', sigma: 1 } }),
    );
    assertBracket(result.epsilon_lower, result.guarantee.epsilon, exact, 0.005, `k = ${k}`);
  }
});

test('tree aggregation at 2^53 steps has ⌈log₂(2^53 + 1)⌉ = 54 levels', () => {
  // discrete_mechanisms_reference.py: the analytic Gaussian at μ = √54: 57.553609760813288 (√53 gave 56.76).
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'tree_aggregation', noise_multiplier: 1, steps: 2 ** 53 }, count: 1 }],
    }),
  );
  assertBracket(result.epsilon_lower, result.epsilon_upper, 57.553609760813288, 1e-9, 'tree');
});

test('a request without op whose keys hold a near miss of it: "did you mean \'op\'"', () => {
  const response = calc.compute({ po: 'compose' });
  assertError(response, 'op');
  assert.match(response.error.message, /did you mean 'op'/);
});

test('a group of a mechanism without noise has no meaningful guarantee, with or without a δ', () => {
  for (const mechanism of [
    { type: 'laplace', scale: 0 },
    { type: 'gaussian', sigma: 0 },
  ]) {
    const none = okResult(calc.compute({ op: 'group', k: 3, mechanism }));
    assert.deepEqual(none.guarantee, { type: 'approx', epsilon: 0, delta: 1 }, mechanism.type);
    assert.equal(none.vacuous, true);
    const atDelta = okResult(calc.compute({ op: 'group', k: 3, delta: 1e-5, mechanism }));
    assert.equal(atDelta.vacuous, true);
    assert.equal(atDelta.epsilon_upper, 'infinity');
  }
});

test('a database released without noise: no meaningful guarantee under every method, unless no person can be in it', () => {
  const databases = [
    { mechanism: { type: 'laplace', scale: 0 } },
    { mechanism: { type: 'laplace', scale: 1 } },
    { mechanism: { type: 'laplace', scale: 1 } },
  ];
  for (const method of ['basic', 'advanced', 'optimal', 'zcdp', 'pld']) {
    const none = okResult(calc.compute({ op: 'databases', method, delta: 1e-5, databases }));
    assert.deepEqual(none.guarantee, { type: 'approx', epsilon: 0, delta: 1 }, method);
    assert.equal(none.vacuous, true);
    assert.deepEqual(none.footprint.classes, [1, 0, 0]);
    assert.match(none.note, /databases\.0 add no noise/);
  }
  // Families that leave the noise-free database out: a person's single Lap(1) release, ε = 1.
  const apart = okResult(
    calc.compute({
      op: 'databases',
      method: 'basic',
      databases,
      constraint: { type: 'families', families: [[1], [2]] },
    }),
  );
  assert.deepEqual(apart.guarantee, { type: 'pure', epsilon: 1 });
  assertError(
    calc.compute({ op: 'databases', method: 'pld', delta: 1e-5, adversary: 'uninformative', databases }),
    'databases.0.mechanism',
    'unsupported',
  );
});
