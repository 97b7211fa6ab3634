// The exponential mechanism (bounded range) and subsampling of any inner mechanism through the
// built JS API. Expected values: tests/reference/bounded_range_reference.py and
// tests/reference/subsampling_reference.py (mpmath at 40 digits), each quoted where it is used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const selection = (epsilon) => ({ type: 'exponential', epsilon });
const compose = (method, items, extra = {}) => calc.compute({ op: 'compose', method, items, ...extra });

// bounded_range_reference.py, 20 selections at ε = 0.5, δ = 1e-5: the worst case of 20 identical
// two-outcome 0.5-BR pairs (a lower bound for every analysis), the ε²/8-zCDP route with Bun &
// Steinke's conversion, and the generic optimal ε-DP composition (Kairouz, Oh, Viswanath 2015, Thm 3.3).
const sameSelectionWorstCase = 4.88343327388;
const zcdpRoute = 5.98991506572;
const genericOptimal = 9.85941102412;

test('exponential: 20 selections at ε = 0.5 by every method', () => {
  const items = [{ mechanism: selection(0.5), count: 20 }];
  const pld = okResult(compose('pld', items, { delta: 1e-5 }));
  assert.ok(pld.epsilon_upper >= sameSelectionWorstCase, `${pld.epsilon_upper}`);
  assert.ok(pld.epsilon_upper <= zcdpRoute && pld.epsilon_upper <= genericOptimal, `${pld.epsilon_upper}`);
  // The envelope pair composed by FFT on a finer grid (same script): 5.54057260.
  assertClose(pld.epsilon_upper, 5.5405726, 5e-3, 'pld');
  assert.match(pld.note, /bounded-range/);
  assert.match(pld.note, /adaptively/);

  const zcdp = okResult(compose('zcdp', items, { delta: 1e-5 }));
  assert.equal(zcdp.guarantee.rho, 0.625); // 20 · 0.5²/8 (Cesar, Rogers 2021)
  assert.ok(zcdp.approx.epsilon <= zcdpRoute * (1 + 1e-12) && zcdp.approx.epsilon >= sameSelectionWorstCase);

  const optimal = okResult(compose('optimal', items, { delta: 1e-5 }));
  assertClose(optimal.guarantee.epsilon, genericOptimal, 1e-9, 'optimal');
  const basic = okResult(compose('basic', items));
  assertClose(basic.guarantee.epsilon, 10, 1e-15, 'basic');
  const rdp = okResult(compose('rdp', items, { delta: 1e-5 }));
  assert.ok(rdp.guarantee.epsilon >= sameSelectionWorstCase && rdp.guarantee.epsilon <= zcdpRoute);
});

test('exponential: monotone in ε and in the number of selections; groups are kε-bounded-range', () => {
  const epsilon = (e, count) =>
    okResult(compose('pld', [{ mechanism: selection(e), count }], { delta: 1e-5 })).epsilon_upper;
  assert.ok(epsilon(0.4, 20) < epsilon(0.5, 20));
  assert.ok(epsilon(0.5, 20) < epsilon(0.5, 21));
  const group = (k) => okResult(calc.compute({ op: 'group', k, mechanism: selection(0.5) }));
  assert.equal(group(1).guarantee.epsilon, 0.5);
  assert.equal(group(3).guarantee.epsilon, 1.5);
  assert.match(group(3).citation, /Durfee, Rogers 2019/);
  // The profile of one selection at ε = 0 is the bounded-range envelope (e^{1/4} − 1)²/(e^{1/2} − 1)
  // = 0.12435300177159621 (same script); the upper bound is at or above it.
  const profile = okResult(
    calc.compute({ op: 'profile', items: [{ mechanism: selection(0.5), count: 1 }], epsilons: [0] }),
  );
  assert.ok(profile.delta_upper[0] >= 0.12435300177159621);
  assertClose(profile.delta_upper[0], 0.12435300177159621, 1e-3, 'profile');
});

test('exponential mixes with Gaussian tables and a subsampled training run in one composition', () => {
  const tables = { mechanism: { type: 'gaussian', sigma: 5 }, count: 12 };
  const median = { mechanism: selection(0.5), count: 1 };
  const training = {
    mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1.1 } },
    count: 1000,
  };
  const all = okResult(compose('pld', [tables, median, training], { delta: 1e-5 }));
  for (const part of [[tables], [median], [training], [tables, training]]) {
    assert.ok(okResult(compose('pld', part, { delta: 1e-5 })).epsilon_upper < all.epsilon_upper);
  }
  assert.match(all.note, /bounded-range/);
});

test('Poisson subsampling of any inner mechanism: amplified pure ε, pairs for the PLD', () => {
  // ln(1 + 0.1 (e − 1)) = 0.15856507874042911 (subsampling_reference.py; Balle, Barthe, Gaboardi 2018).
  const subsampled = (mechanism) => ({ type: 'poisson_subsampled', rate: 0.1, mechanism });
  for (const inner of [{ type: 'laplace', scale: 1 }, selection(1)]) {
    const basic = okResult(compose('basic', [{ mechanism: subsampled(inner), count: 1 }]));
    assertClose(basic.guarantee.epsilon, 0.15856507874042911, 1e-15, inner.type);
    const pld = okResult(compose('pld', [{ mechanism: subsampled(inner), count: 100 }], { delta: 1e-5 }));
    assert.ok(pld.epsilon_upper < 100 * 0.15856507874042911);
  }
  // Subsampling makes an exponential mechanism cheaper, never dearer.
  const alone = okResult(compose('pld', [{ mechanism: selection(1), count: 100 }], { delta: 1e-5 }));
  const sampled = okResult(compose('pld', [{ mechanism: subsampled(selection(1)), count: 100 }], { delta: 1e-5 }));
  assert.ok(sampled.epsilon_upper < alone.epsilon_upper);
});

test('exponential: its parameter is checked on its field', () => {
  for (const epsilon of [0, -1, 'x']) {
    const response = compose('pld', [{ mechanism: selection(epsilon), count: 1 }], { delta: 1e-5 });
    assert.equal(response.ok, false);
    assert.equal(response.error.field, 'items.0.mechanism.epsilon');
  }
  assertError(compose('pld', [{ mechanism: selection(800), count: 1 }], { delta: 1e-5 }), 'items.0.mechanism.epsilon');
  assertError(
    compose('pld', [{ mechanism: { type: 'exponential', epsilon: 1, scale: 2 }, count: 1 }], { delta: 1e-5 }),
    'items.0.mechanism.scale',
  );
});

test('sampling without replacement: relation substitute only, any inner mechanism (randomized response)', () => {
  // Randomized response with p = 0.5 over 4 buckets is ln 5-DP; on 1 of 10 records drawn without
  // replacement its pair is (0.1 P + 0.9 Q, Q) (Zhu, Dong, Wang 2022, Thm 11): the only outcome of
  // positive loss has masses 0.1 · 0.625 + 0.9 · 0.125 = 0.175 and 0.125, so δ(ε) = 0.175 − 0.125 e^ε
  // and ε(1e-5) = ln((0.175 − 1e-5)/0.125) (the swapped direction is smaller); pure ε = ln 1.4
  // (Balle, Barthe, Gaboardi 2018).
  const sampled = {
    type: 'sampled_without_replacement',
    dataset_size: 10,
    sample_size: 1,
    mechanism: { type: 'randomized_response', noise_parameter: 0.5, num_buckets: 4 },
  };
  const items = [{ mechanism: sampled, count: 1 }];
  const basic = okResult(compose('basic', items, { relation: 'substitute' }));
  assertClose(basic.guarantee.epsilon, Math.log(1.4), 1e-15, 'basic');
  const pld = okResult(compose('pld', items, { delta: 1e-5, relation: 'substitute' }));
  const exact = Math.log((0.175 - 1e-5) / 0.125);
  assert.ok(pld.epsilon_upper >= exact * (1 - 1e-12) && pld.epsilon_lower <= exact * (1 + 1e-12));
  assertClose(pld.epsilon_upper, exact, 5e-3, 'pld');
  assertError(compose('pld', items, { delta: 1e-5 }), 'items.0.mechanism.type');
  assertError(compose('pld', items, { delta: 1e-5, relation: 'add_remove' }), 'relation');
  // A Gaussian on 256 of 60000: dp_accounting 0.6.0's RDP accountant (REPLACE_ONE), 1000 steps:
  // ε = 1.2786376511282933 (tests/reference/subsampling_reference.py); the PLD is below it.
  const gaussian = [
    {
      mechanism: { ...sampled, dataset_size: 60000, sample_size: 256, mechanism: { type: 'gaussian', sigma: 1.1 } },
      count: 1000,
    },
  ];
  const rdp = okResult(compose('rdp', gaussian, { delta: 1e-5, relation: 'substitute' }));
  assertClose(rdp.guarantee.epsilon, 1.2786376511282933, 1e-6, 'rdp');
  const gaussianPld = okResult(compose('pld', gaussian, { delta: 1e-5, relation: 'substitute' }));
  assert.ok(gaussianPld.epsilon_upper < rdp.guarantee.epsilon);
});
