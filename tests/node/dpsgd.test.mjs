// DP-SGD groups through the built JS API: op 'dpsgd' (forward and calibration), op 'rdp'
// and compose method 'rdp'. Reference values:
//  * dp_accounting b5b0286 mixture-of-Gaussians PLD (step 1e-4, pessimistic, both directions),
//    fixed batch N = 60000, B = 256, δ = 1e-5: tests/reference/dpsgd_mixture_reference.py;
//  * dp_accounting b5b0286 RdpAccountant (the accountant TF Privacy and Opacus wrap):
//    tests/reference/rdp_reference.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const mnist = { op: 'dpsgd', sampling: 'fixed_batch', dataset_size: 60000, batch_size: 256, delta: 1e-5 };
const subsampledGaussian = (sigma, rate) => ({
  type: 'poisson_subsampled',
  rate,
  mechanism: { type: 'gaussian', sigma },
});

test('dpsgd forward: k = 5, σ = 2, T = 16384 against dp_accounting, with every method', () => {
  const result = okResult(calc.compute({ ...mnist, group_size: 5, noise_multiplier: 2, steps: 16384 }));
  const reference = 6.866560552; // dp_accounting mixture PLD
  assert.equal(result.guarantee.type, 'approx');
  assert.equal(result.guarantee.delta, 1e-5);
  assert.ok(Math.abs(result.guarantee.epsilon - reference) <= 0.005 * reference + 5e-4, `${result.guarantee.epsilon}`);
  assert.ok(result.epsilon_lower <= reference && result.epsilon_lower > 0.99 * reference);
  assert.equal(result.steps, 16384);
  assert.equal(result.methods.pld.epsilon, result.guarantee.epsilon);
  assert.equal(result.methods.pld.epsilon_lower, result.epsilon_lower);
  // Sommer's (2021) event, q_k = 1 - hypergeom.cdf(0, N, 5, B), σ/5, at its best order 1.1: the exact
  // divergence by quadrature (tests/reference/rdp_exact_reference.py dpsgd_group: 365.2153527570961).
  // dp_accounting's RdpAccountant gives 535.649 (its order 1.4): its fractional-order series is looser.
  const overapprox = result.methods.rdp_overapprox.epsilon;
  assert.ok(overapprox >= 365.2153527570961 && overapprox <= 365.2153527570961 * (1 + 1e-9), `${overapprox}`);
  assert.equal(result.methods.rdp_overapprox.order, 1.1);
  assert.match(result.methods.rdp_overapprox.note, /someone will prove/);
  const generic = result.methods.generic_group;
  // 5 × the k = 1 guarantee (dp_accounting: 1.104013932 at δ = 1e-5), at its own, larger δ.
  assert.ok(Math.abs(generic.epsilon - 5 * 1.104013932) <= 0.005 * 5 * 1.104013932, `${generic.epsilon}`);
  assert.ok(generic.delta > 1e-5 && generic.delta < 1);
  assert.equal(generic.per_example.delta, 1e-5);
  assert.deepEqual(result.mixture.shifts, [0, 1, 2, 3, 4, 5]);
  assert.ok(Math.abs(result.mixture.weights.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.match(result.note, /worst-case property/);
});

test('dpsgd: k = 1 with Poisson sampling equals the plain Poisson-subsampled Gaussian', () => {
  const group = okResult(
    calc.compute({
      op: 'dpsgd',
      sampling: 'poisson',
      sampling_rate: 0.01,
      group_size: 1,
      noise_multiplier: 1.1,
      steps: 1000,
      delta: 1e-5,
    }),
  );
  const plain = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: subsampledGaussian(1.1, 0.01), count: 1000 }],
    }),
  );
  assertClose(group.guarantee.epsilon, plain.guarantee.epsilon, 1e-6, 'k = 1');
  assert.ok(Math.abs(group.guarantee.epsilon - 1.515370248221417) <= 0.005 * 1.515370248221417); // public_values.json
  assert.equal(group.methods.generic_group.epsilon, group.guarantee.epsilon);
});

test('dpsgd: epochs become steps, rounded up, and the result says so', () => {
  const result = okResult(calc.compute({ ...mnist, group_size: 2, noise_multiplier: 1.1, epochs: 60 }));
  assert.equal(result.steps, 14063); // 60 · 60000 / 256 = 14062.5
  assert.match(result.steps_note, /rounded up/);
});

test('dpsgd: substitution returns the double mixture and a larger ε than add/remove', () => {
  const base = {
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    group_size: 2,
    noise_multiplier: 2,
    steps: 100,
    delta: 1e-5,
  };
  const replaced = okResult(calc.compute({ ...base, relation: 'substitute' }));
  const added = okResult(calc.compute(base));
  assert.deepEqual(replaced.mixture.q_shifts, [0, -1, -2]);
  assert.ok(replaced.guarantee.epsilon > added.guarantee.epsilon);
  assert.equal(replaced.methods.rdp_overapprox.available, false);
});

test('dpsgd calibration: the smallest σ meeting the target, composed back within 1%', () => {
  const result = okResult(calc.compute({ ...mnist, group_size: 4, steps: 2000, target: { epsilon: 2 } }));
  assert.ok(result.guarantee.epsilon <= 2 && result.guarantee.epsilon >= 0.99 * 2, `${result.guarantee.epsilon}`);
  const back = okResult(
    calc.compute({ ...mnist, group_size: 4, steps: 2000, noise_multiplier: result.noise_multiplier }),
  );
  assert.ok(back.guarantee.epsilon <= 2);
  assert.ok(result.rule_of_thumb.noise_multiplier > 0 && result.rule_of_thumb.epsilon > 0);
  assert.match(result.rule_of_thumb.note, /not a bound/);
});

test('rdp op and compose method rdp against dp_accounting', () => {
  assertError(
    calc.compute({ op: 'rdp', orders: [2, 8, 3.7], items: [{ mechanism: subsampledGaussian(2, 0.01), count: 1 }] }),
    'orders.2',
  );
  const result = okResult(
    calc.compute({ op: 'rdp', orders: [2, 3.7, 8], items: [{ mechanism: subsampledGaussian(2, 0.01), count: 1000 }] }),
  );
  assert.deepEqual(result.orders, [2, 3.7, 8]);
  assertClose(result.epsilons[0], 1000 * 2.8402138324228282e-5, 1e-6, 'α = 2');
  assertClose(result.epsilons[1], 1000 * 5.2820005706822024e-5, 1e-6, 'α = 3.7');
  assertClose(result.epsilons[2], 1000 * 0.00011575614792991869, 1e-6, 'α = 8');
  const gaussian = okResult(
    calc.compute({
      op: 'rdp',
      orders: [2, 10],
      items: [{ mechanism: { type: 'gaussian', sigma: 2, sensitivity: 1 }, count: 3 }],
    }),
  );
  assertClose(gaussian.epsilons[1], (3 * 10) / 8, 1e-12, 'Gaussian: α/(2σ²)');
  assert.ok(
    okResult(calc.compute({ op: 'rdp', items: [{ mechanism: subsampledGaussian(2, 0.01), count: 1 }] })).orders.length >
      100,
  );
  // dp_accounting RdpAccountant, q = 256/60000, σ = 1, T = 16384, δ = 1e-5: ε 3.344160967277809 at order 6.7.
  const composed = okResult(
    calc.compute({
      op: 'compose',
      method: 'rdp',
      delta: 1e-5,
      items: [{ mechanism: subsampledGaussian(1, 256 / 60000), count: 16384 }],
    }),
  );
  assertClose(composed.guarantee.epsilon, 3.344160967277809, 1e-6, 'compose rdp');
  assert.equal(composed.order, 6.7);
});

test('dpsgd and rdp errors name the field', () => {
  const forward = { ...mnist, group_size: 2, noise_multiplier: 1, steps: 10 };
  assertError(calc.compute({ ...forward, group_size: 60001 }), 'group_size');
  assertError(calc.compute({ ...forward, batch_size: 60001 }), 'batch_size');
  assertError(calc.compute({ ...forward, group_size: 0 }), 'group_size');
  assertError(calc.compute({ ...forward, group_size: 2.5 }), 'group_size');
  assertError(calc.compute({ ...forward, dataset_size: 6e4 + 0.5 }), 'dataset_size');
  assertError(calc.compute({ ...forward, noise_multiplier: NaN }), 'noise_multiplier');
  assertError(calc.compute({ ...forward, steps: 2 ** 53 + 2 }), 'steps');
  assertError(calc.compute({ ...forward, steps: 1.5 }), 'steps');
  assertError(calc.compute({ ...forward, epochs: 3 }), 'epochs');
  assertError(calc.compute({ ...forward, sampling: 'shufle' }), 'sampling');
  assertError(calc.compute({ ...forward, relation: 'swap' }), 'relation');
  assertError(calc.compute({ ...forward, target: { epsilon: 1 } }), 'target');
  const poisson = { op: 'dpsgd', sampling: 'poisson', group_size: 2, noise_multiplier: 1, steps: 10, delta: 1e-5 };
  assertError(calc.compute({ ...poisson, sampling_rate: -0.1 }), 'sampling_rate');
  assertError(calc.compute({ ...poisson, sampling_rate: 0.01, noise_multiplier: -1 }), 'noise_multiplier');
  assertError(calc.compute({ ...poisson, sampling_rate: 1.5 }), 'sampling_rate');
  assertError(
    calc.compute({
      ...poisson,
      sampling_rate: 0.5,
      group_size: 50,
      noise_multiplier: undefined,
      steps: 1e4,
      delta: 1e-5,
      target: { epsilon: 1e-4 },
    }),
    'target.epsilon',
    'numeric',
  );
  assertError(
    calc.compute({
      op: 'rdp',
      items: [{ mechanism: { type: 'gaussian_mixture', sigma: 1, shifts: [0, 1], weights: [0.5, 0.5] }, count: 1 }],
    }),
    'items.0.mechanism.type',
    'unsupported',
  );
  assertError(
    calc.compute({ op: 'rdp', orders: [0.5], items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 1 }] }),
    'orders.0',
  );
  assertError(
    calc.compute({ op: 'compose', method: 'rdp', items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 1 }] }),
    'delta',
  );
});

// The trivial trainings dp_accounting accepts. Its PLD accountant answers a Gaussian of noise 0 with
// ε = ∞ at every δ (PoissonSampledDpEvent(q, GaussianDpEvent(0))); the exact δ(ε) is P, the chance that
// a step samples one of the group's examples, P = 1 − (1 − q)^(k·T) (mpmath, 40 digits).
test('dpsgd without noise or at sampling rate 0: exact answers, not errors', () => {
  const poisson = { op: 'dpsgd', sampling: 'poisson', steps: 100, delta: 1e-5 };
  const none = okResult(calc.compute({ ...poisson, sampling_rate: 0.01, noise_multiplier: 0, group_size: 3 }));
  assert.equal(none.vacuous, true);
  assert.deepEqual(none.guarantee, { type: 'approx', epsilon: 0, delta: 1 });
  assert.equal(none.epsilon_upper, 'infinity');
  assert.equal(none.epsilon_lower, 'infinity');
  assert.match(none.note, /P = 1 − Π \(1 − q\)\^\(k·T\) = 0\.950959105928714/); // 0.9509591059287141471862738
  // P = 9.9999995050000168e-8 at q = 1e-9, T = 100: at δ = 1e-7 ≥ P no output tells the datasets apart beyond δ.
  const rare = okResult(calc.compute({ ...poisson, sampling_rate: 1e-9, noise_multiplier: 0, delta: 1e-7 }));
  assert.deepEqual(rare.guarantee, { type: 'approx', epsilon: 0, delta: 1e-7 });
  assert.equal(rare.vacuous, undefined);
  const unread = okResult(calc.compute({ ...poisson, sampling_rate: 0, noise_multiplier: 1, group_size: 5 }));
  assert.deepEqual(unread.guarantee, { type: 'approx', epsilon: 0, delta: 1e-5 });
  assert.equal(unread.epsilon_lower, 0);
  assert.equal(unread.status, 'tight');
  assert.equal(unread.mixture, undefined);
  // A phase at rate 0 composes as nothing: the schedule's ε is its other phase's.
  const phase = { sampling_rate: 0.01, noise_multiplier: 1, steps: 100 };
  const alone = okResult(calc.compute({ op: 'dpsgd', sampling: 'poisson', delta: 1e-5, phases: [phase] }));
  const schedule = okResult(
    calc.compute({
      op: 'dpsgd',
      sampling: 'poisson',
      delta: 1e-5,
      phases: [phase, { ...phase, sampling_rate: 0, steps: 10 }],
    }),
  );
  assert.equal(schedule.guarantee.epsilon, alone.guarantee.epsilon);
  assert.equal(schedule.steps, 110);
  assertError(calc.compute({ ...poisson, sampling_rate: 0, target: { epsilon: 1 } }), 'sampling_rate');
  // Noise-free beside noisy at δ ≥ P (0.0956 for the second phase): refused on that phase's field.
  assertError(
    calc.compute({
      op: 'dpsgd',
      sampling: 'poisson',
      delta: 0.5,
      phases: [phase, { ...phase, noise_multiplier: 0, steps: 10 }],
    }),
    'phases.1.noise_multiplier',
  );
  assertError(
    calc.compute({ ...poisson, sampling_rate: 0, noise_multiplier: 1, epochs: 2, steps: undefined }),
    'epochs',
  );
  assertError(calc.compute({ ...poisson, sampling_rate: 0.01, noise_multiplier: 0, explain: true }), 'explain');
  assertError(
    calc.compute({
      op: 'dpsgd',
      sampling: 'shuffle',
      dataset_size: 1000,
      batch_size: 10,
      steps: 100,
      delta: 1e-5,
      noise_multiplier: 0,
    }),
    'noise_multiplier',
  );
  assertError(
    calc.compute({
      ...poisson,
      sampling_rate: 0.01,
      noise_multiplier: 0,
      repetitions: { mean: 10, distribution: 'poisson' },
    }),
    'repetitions',
  );
});

test('the generic group row starts from the very ε a request for one example answers (one ε everywhere)', () => {
  const base = { op: 'dpsgd', dataset_size: 50000, batch_size: 256, epochs: 30, noise_multiplier: 1.1, delta: 1e-5 };
  for (const sampling of ['poisson', 'fixed_batch']) {
    const one = okResult(calc.compute({ ...base, sampling, group_size: 1 }));
    const group = okResult(calc.compute({ ...base, sampling, group_size: 4 }));
    assert.equal(group.methods.generic_group.per_example.epsilon, one.guarantee.epsilon, sampling);
  }
});
