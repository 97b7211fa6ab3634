// Rényi DP through the built JS API: op 'rdp' and compose method 'rdp' for every mechanism with a
// curve, orders 1 and "infinity" (strings in requests and results), the exact fractional orders of the
// Poisson-subsampled Gaussian, tuning by random repetition on compose and dpsgd, and Poisson
// subsampling under substitution. Reference values:
//  * mpmath from the definitions: tests/reference/rdp_api_reference.py (curves, replace) and
//    rdp_exact_reference.py (quadrature of the subsampled Gaussian);
//  * dp_accounting 0.6.0 run from source (google/differential-privacy b5b0286, python/dp_accounting):
//    RdpAccountant on RepeatAndSelectDpEvent (tests/reference/repeat_and_select_reference.py, section
//    dp_accounting), PLDAccountant on PoissonSampledDpEvent(0.01, GaussianDpEvent(1)) × 10000 steps
//    (6.1877449761406655) and with REPLACE_ONE × 1000 steps (2.8434458130196942), δ = 1e-5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const subsampled = (rate, sigma) => ({ type: 'poisson_subsampled', rate, mechanism: { type: 'gaussian', sigma } });
const rdp = (mechanism, count, orders, extra = {}) =>
  calc.compute({ op: 'rdp', items: [{ mechanism, count }], orders, ...extra });

test('orders 1 and "infinity": Laplace finite, a Gaussian infinite (the string, never a number)', () => {
  const laplace = okResult(rdp({ type: 'laplace', scale: 1 }, 3, [1, 2, 'infinity']));
  assert.deepEqual(laplace.orders, [1, 2, 'infinity']);
  assertClose(laplace.epsilons[0], 1.103638323514327, 1e-12, 'order 1: 3/e');
  assertClose(laplace.epsilons[1], 1.8573708899957786, 1e-12, 'order 2 (mpmath 1.8573708899957787)');
  assert.equal(laplace.epsilons[2], 3);
  assert.equal(laplace.method, 'Rényi DP of the Laplace mechanism');
  const gaussian = okResult(rdp({ type: 'gaussian', sigma: 2 }, 1, [2, 'infinity']));
  assert.deepEqual(gaussian.epsilons, [0.25, 'infinity']);
  assert.equal(gaussian.dropped_orders, undefined);
  // A JavaScript Infinity is the same order; any other string is refused.
  assert.deepEqual(okResult(rdp({ type: 'gaussian', sigma: 2 }, 1, [2, Infinity])).orders, [2, 'infinity']);
  assertError(rdp({ type: 'gaussian', sigma: 2 }, 1, [2, 'inf']), 'orders.1');
  // Laplace ×3 is pure 3-DP: compose's best order is infinity.
  const pure = okResult(
    calc.compute({
      op: 'compose',
      method: 'rdp',
      delta: 1e-10,
      orders: [2, 'infinity'],
      items: [{ mechanism: { type: 'laplace', scale: 1 }, count: 3 }],
    }),
  );
  assert.equal(pure.order, 'infinity');
  assertClose(pure.guarantee.epsilon, 3, 1e-15, 'pure 3-DP');
});

test('the subsampled Gaussian at order 1.25: the exact divergence, every order answered', () => {
  const exact = okResult(rdp(subsampled(0.2, 10), 1, [1.25]));
  assertClose(exact.epsilons[0], 2.5090084724645965e-4, 1e-6, 'q = 0.2, σ = 10 (quadrature)');
  assert.equal(exact.method, 'Rényi DP of the Poisson-subsampled Gaussian');
  const small = okResult(rdp(subsampled(0.2, 2), 1, [1.25, 2]));
  assertClose(small.epsilons[0], 0.006824777906193163, 1e-6, 'q = 0.2, σ = 2 (quadrature)');
  assert.equal(small.dropped_orders, undefined);
});

test('labels: each result names the curves it used', () => {
  const rr = okResult(
    rdp({ type: 'randomized_response', noise_parameter: 0.5, num_buckets: 4 }, 1, [2], { relation: 'substitute' }),
  );
  assertClose(rr.epsilons[0], 1.2237754316221157, 1e-9, 'randomized response');
  assert.equal(rr.method, 'Rényi DP of randomized response (its exact pair)');
  const exponential = okResult(rdp({ type: 'exponential', epsilon: 1 }, 5, [2]));
  assertClose(exponential.epsilons[0], 5 * 0.24022901391655505, 1e-9, 'exponential, 5 selections');
  assert.match(exponential.method, /bounded-range/);
  const discrete = okResult(rdp({ type: 'discrete_gaussian', sigma: 2 }, 1, [2]));
  assert.equal(discrete.method, 'Rényi DP of the discrete Gaussian mechanism (its exact pair)');
  const swor = okResult(
    rdp(
      {
        type: 'sampled_without_replacement',
        dataset_size: 100,
        sample_size: 10,
        mechanism: { type: 'laplace', scale: 1 },
      },
      1,
      [2],
      { relation: 'substitute' },
    ),
  );
  assert.equal(swor.method, 'Rényi DP of sampling without replacement');
  for (const result of [rr, exponential, discrete, swor]) assert.doesNotMatch(result.method, /Gaussian mechanism$/);
});

test('compose with repetitions: Papernot & Steinke 2022 against dp_accounting', () => {
  const tuned = (repetitions) =>
    okResult(
      calc.compute({
        op: 'compose',
        method: 'rdp',
        delta: 1e-5,
        items: [{ mechanism: subsampled(0.01, 1), count: 1000 }],
        repetitions,
      }),
    );
  const poisson = tuned({ mean: 10, distribution: 'poisson' });
  assertClose(poisson.guarantee.epsilon, 4.329497680252047, 1e-4, 'Poisson');
  assertClose(poisson.fixed_runs.guarantee.epsilon, 6.712756664482653, 1e-4, '10 runs composed by RDP');
  assert.equal(poisson.fixed_runs.runs, 10);
  assert.deepEqual(poisson.repetitions, { mean: 10, distribution: 'poisson' });
  assertClose(tuned({ mean: 10, distribution: 'geometric' }).guarantee.epsilon, 4.10327065640215, 1e-4, 'geometric');
  const logarithmic = tuned({ mean: 10, distribution: 'truncated_negative_binomial', shape: 0 });
  assertClose(logarithmic.guarantee.epsilon, 3.5226334451373686, 1e-4, 'logarithmic');
  assert.equal(logarithmic.repetitions.shape, 0);
  const request = (repetitions) => ({
    op: 'compose',
    method: 'rdp',
    delta: 1e-5,
    items: [{ mechanism: subsampled(0.01, 1), count: 1000 }],
    repetitions,
  });
  assertError(calc.compute(request({ mean: 0, distribution: 'poisson' })), 'repetitions.mean');
  assertError(calc.compute(request({ mean: 10, distribution: 'geometric', shape: 3 })), 'repetitions.shape');
  assertError(calc.compute(request({ mean: 10, distribution: 'truncated_negative_binomial' })), 'repetitions.shape');
  const typo = calc.compute(request({ mean: 10, distribution: 'geometrc' }));
  assertError(typo, 'repetitions.distribution');
  assert.match(typo.error.message, /did you mean 'geometric'/);
});

test('compose with repetitions: fixed runs that no order bounds are vacuous, the tuned ε still answers', () => {
  // 1e300 runs of Laplace b = 1e-10 (ε(α) = 1e10 at most, its pure ε): the runs composed one after
  // another overflow a double at every order, while the tuned curve adds only log terms
  // (Papernot & Steinke 2022, Thm 2). Found by \`npm run fuzz\` (it answered an error on \`orders\`,
  // a field these requests do not have).
  const items = [{ mechanism: { type: 'laplace', scale: 1e-10 }, count: 1 }];
  const single = okResult(calc.compute({ op: 'compose', method: 'rdp', delta: 1e-5, items }));
  const tuned = okResult(
    calc.compute({
      op: 'compose',
      method: 'rdp',
      delta: 1e-5,
      items,
      repetitions: { mean: 1e300, distribution: 'geometric' },
    }),
  );
  assert.ok(Number.isFinite(tuned.guarantee.epsilon));
  assert.ok(tuned.guarantee.epsilon >= single.guarantee.epsilon, 'the best of several runs costs at least one run');
  assert.deepEqual(tuned.fixed_runs, {
    runs: 1e300,
    guarantee: { type: 'approx', epsilon: 0, delta: 1 },
    vacuous: true,
  });
});

test('dpsgd with repetitions: the tuned ε beside 10 fixed runs by PLD', () => {
  const result = okResult(
    calc.compute({
      op: 'dpsgd',
      sampling: 'poisson',
      sampling_rate: 0.01,
      noise_multiplier: 1,
      steps: 1000,
      delta: 1e-5,
      repetitions: { mean: 10, distribution: 'poisson' },
    }),
  );
  assertClose(result.guarantee.epsilon, 4.329497680252047, 1e-4, 'Poisson, mean 10');
  assert.ok(result.fixed_runs.epsilon_lower <= 6.1877449761406655);
  assert.ok(result.fixed_runs.guarantee.epsilon >= 6.1877449761406655 * (1 - 2e-3));
  assert.ok(result.fixed_runs.guarantee.epsilon <= 6.1877449761406655 * 1.005);
  assert.match(result.citation, /Papernot & Steinke 2022/);
});

test('poisson_subsampled under substitution and zero-out against dp_accounting', () => {
  const epsilon = (relation) =>
    okResult(
      calc.compute({
        op: 'compose',
        method: 'pld',
        delta: 1e-5,
        relation,
        items: [{ mechanism: subsampled(0.01, 1), count: 1000 }],
      }),
    );
  const replaced = epsilon('substitute');
  assert.ok(replaced.epsilon_lower <= 2.8434458130196942);
  assert.ok(replaced.epsilon_upper >= 2.8434458130196942 * (1 - 2e-3));
  assert.ok(replaced.epsilon_upper <= 2.8434458130196942 * 1.005);
  assert.ok(epsilon('zero_out').epsilon_upper < replaced.epsilon_lower);
  assertError(rdp(subsampled(0.01, 1), 1, [2], { relation: 'substitute' }), 'items.0.mechanism.type', 'unsupported');
});
