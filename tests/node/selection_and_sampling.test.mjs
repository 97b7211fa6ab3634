// The exponential mechanism (bounded range) and subsampling of any inner mechanism through the
// built JS API. Expected values: tests/reference/bounded_range_reference.py,
// tests/reference/nonadaptive_bounded_range_reference.py and tests/reference/subsampling_reference.py
// (mpmath at 40 digits), each quoted where it is used.
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
  // The envelope pair composed by FFT on a finer grid (same script) gives 5.54057260; Rényi DP of the
  // selections themselves proves less and caps it (never looser than a cheaper sound bound).
  assert.ok(pld.epsilon_upper < 5.5405726 * (1 - 5e-3), `${pld.epsilon_upper}`);
  assert.equal(pld.capped_by, 'rdp');
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
  assert.equal(pld.epsilon_upper, rdp.guarantee.epsilon);
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

// nonadaptive_bounded_range_reference.py (mpmath, 40 digits): the optimal composition of k ε-BR
// mechanisms fixed in advance (Dong, Durfee, Rogers 2020, Sec. 5), ε at δ = 1e-5 (upper end of the
// bisection bracket), and δ at ε = 2 for 20 selections at ε = 0.5.
const fixedInAdvance = [
  [0.5, 20, 4.88343327388],
  [0.1, 100, 1.98863276864],
  [1.0, 10, 7.10496782882],
  [0.5, 2, 0.965092445142],
];

test('exponential selections fixed in advance: the optimal non-adaptive composition', () => {
  for (const [epsilon, count, exact] of fixedInAdvance) {
    const items = [{ mechanism: { ...selection(epsilon), adaptive: false }, count }];
    const pld = okResult(compose('pld', items, { delta: 1e-5 }));
    assert.ok(pld.epsilon_upper >= exact, `${count} × ${epsilon}: ${pld.epsilon_upper}`);
    assertClose(pld.epsilon_upper, exact, 5e-3, `${count} × ${epsilon}`);
    assert.match(pld.note, /fixed in advance/);
    assert.match(pld.note, /Dong, Durfee, Rogers 2020, Sec\. 5/);
    const adaptive = okResult(compose('pld', [{ mechanism: selection(epsilon), count }], { delta: 1e-5 }));
    assert.ok(pld.epsilon_upper < adaptive.epsilon_upper, `${pld.epsilon_upper} < ${adaptive.epsilon_upper}`);
    assert.match(adaptive.note, /adaptively/);
  }
  const profile = okResult(
    calc.compute({
      op: 'profile',
      items: [{ mechanism: { ...selection(0.5), adaptive: false }, count: 20 }],
      epsilons: [2],
    }),
  );
  assert.ok(profile.delta_upper[0] >= 0.0410683283479935);
  assertClose(profile.delta_upper[0], 0.0410683283479935, 2e-3, 'profile'); // chords (≤ 0.1%) and the grid
  // adaptive: true is the default.
  const explicit = okResult(
    compose('pld', [{ mechanism: { ...selection(0.5), adaptive: true }, count: 20 }], { delta: 1e-5 }),
  );
  assert.equal(
    explicit.epsilon_upper,
    okResult(compose('pld', [{ mechanism: selection(0.5), count: 20 }], { delta: 1e-5 })).epsilon_upper,
  );
  // Fixed in advance, they still compose with other items (as one block), and cost less than adaptively.
  const tables = { mechanism: { type: 'discrete_gaussian', sigma: 5, sensitivity: 1 }, count: 12 };
  const mixed = (adaptive) =>
    okResult(compose('pld', [tables, { mechanism: { ...selection(0.5), adaptive }, count: 20 }], { delta: 1e-5 }));
  assert.ok(mixed(false).epsilon_upper < mixed(true).epsilon_upper);
  assert.ok(mixed(false).epsilon_upper > okResult(compose('pld', [tables], { delta: 1e-5 })).epsilon_upper);
});

test('exponential selections fixed in advance: adaptive is a boolean, and many selections fall back', () => {
  for (const adaptive of ['no', 0, 1, 'false', []]) {
    assertError(
      compose('pld', [{ mechanism: { ...selection(0.5), adaptive }, count: 2 }], { delta: 1e-5 }),
      'items.0.mechanism.adaptive',
    );
  }
  const typo = compose('pld', [{ mechanism: { ...selection(0.5), adaptve: false }, count: 2 }], { delta: 1e-5 });
  assertError(typo, 'items.0.mechanism.adaptve');
  assert.match(typo.error.message, /adaptive/);
  assertError(
    compose('pld', [{ mechanism: { type: 'laplace', scale: 1, adaptive: false }, count: 2 }], { delta: 1e-5 }),
    'items.0.mechanism.adaptive',
  );
  // 2000 selections are beyond the non-adaptive evaluation: the adaptive analysis (which holds for
  // them too) answers, and the note says so.
  const many = okResult(
    compose('pld', [{ mechanism: { ...selection(0.05), adaptive: false }, count: 2000 }], { delta: 1e-5 }),
  );
  const adaptive = okResult(compose('pld', [{ mechanism: selection(0.05), count: 2000 }], { delta: 1e-5 }));
  assert.equal(many.epsilon_upper, adaptive.epsilon_upper);
  assert.match(many.note, /composed adaptively/);
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
