// Numeric composition (method 'pld', op 'profile') through the built JS API.
// References: dp_accounting 0.6.0 (google/differential-privacy, PLD accountant, pessimistic,
// connect-the-dots, value_discretization_interval 1e-4, max over add/remove) run from source, the
// rows of /work/shared/references/public_values.json, and the exact Gaussian (Balle & Wang 2018,
// mpmath at 40 digits). Default settings; tolerance 0.5% or 5e-4 absolute, whichever is larger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const subsampledGaussian = (sigma, rate) => ({
  type: 'poisson_subsampled',
  rate,
  mechanism: { type: 'gaussian', sigma, sensitivity: 1 },
});

function assertNear(actual, expected, label) {
  const allowed = Math.max(0.005 * Math.abs(expected), 5e-4);
  assert.ok(
    Math.abs(actual - expected) <= allowed,
    `${label}: ${actual} vs reference ${expected} (allowed ±${allowed})`,
  );
}

test('DP-SGD (Poisson-subsampled Gaussian) against dp_accounting', () => {
  const rows = [
    // [sigma, q, steps, delta, reference epsilon]
    [1.1, 0.004266666666666667, 1000, 1e-5, 0.5987026623130971], // public_values.json
    [1.1, 0.004266666666666667, 16384, 1e-5, 2.5902967307391584], // public_values.json
    [1.1, 0.01, 1000, 1e-5, 1.515370248221417], // public_values.json
    [1.1, 0.01, 16384, 1e-5, 6.89917732630333], // public_values.json
    [1.0, 0.01, 10000, 1e-5, 6.187745], // dp_accounting, step 1e-4
    [0.5, 0.1, 16384, 1e-5, 1208.4436], // dp_accounting, step 1e-4
    [4.0, 0.001, 1, 1e-5, 4.39366e-4], // dp_accounting, step 1e-4
  ];
  for (const [sigma, rate, count, delta, expected] of rows) {
    const result = okResult(
      calc.compute({
        op: 'compose',
        method: 'pld',
        delta,
        items: [{ mechanism: subsampledGaussian(sigma, rate), count }],
      }),
    );
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
  for (const [sigma, count, delta, exact] of [
    [10, 100, 1e-5, 4.377178095681225],
    [2, 1, 1e-6, 2.2540846502197409],
  ]) {
    const result = okResult(
      calc.compute({ op: 'compose', method: 'pld', delta, items: [{ mechanism: { type: 'gaussian', sigma }, count }] }),
    );
    assert.ok(result.epsilon_upper >= exact, `upper ${result.epsilon_upper} below exact ${exact}`);
    assert.ok(result.epsilon_lower <= exact, `lower ${result.epsilon_lower} above exact ${exact}`);
    assertClose(result.epsilon_upper, exact, 1e-3, `σ=${sigma}, T=${count}`);
  }
});

test('Gaussians alone compose exactly: one Gaussian with μ² = Σ count (Δ/σ)², no grid', () => {
  // 50 Gaussians σ = 20…69: μ = 0.19204838438357987, ε(1e-5) = 0.69404698800153289420 (Balle &
  // Wang 2018, Thm 8, mpmath at 40 digits), compared through the doubles just below and above it.
  const items = Array.from({ length: 50 }, (_, i) => ({ mechanism: { type: 'gaussian', sigma: 20 + i }, count: 1 }));
  const result = okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items }));
  assert.ok(result.epsilon_lower <= 0.694046988001533 && 0.6940469880015329 <= result.epsilon_upper);
  assert.ok(result.epsilon_upper - result.epsilon_lower <= 1e-12);
  assert.equal(result.citation, 'Dong, Roth, Su 2019, Cor. 3.3; Balle & Wang 2018, Thm 8');
  assert.equal(result.grid_size, 0);
  // Its options are still checked, on the request's field.
  assertError(
    calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items, discretization: { tail_mass_truncation: 0.5 } }),
    'discretization.tail_mass_truncation',
  );
});

test('discretization.tail_mass_truncation is checked before δ / 10 lowers it (an invalid value was accepted)', () => {
  const items = [{ mechanism: subsampledGaussian(1, 0.01), count: 100 }];
  for (const tail of [0.5, -1]) {
    assertError(
      calc.compute({
        op: 'compose',
        method: 'pld',
        delta: 1e-5,
        items,
        discretization: { tail_mass_truncation: tail },
      }),
      'discretization.tail_mass_truncation',
    );
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
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-4,
      items: [
        { guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-6 }, count: 10 },
        { guarantee: { type: 'pure', epsilon: 0.1 }, count: 50 },
      ],
    }),
  );
  assert.match(result.note, /Murtagh/);
  const basic = okResult(
    calc.compute({
      op: 'compose',
      method: 'basic',
      items: [
        { guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-6 }, count: 10 },
        { guarantee: { type: 'pure', epsilon: 0.1 }, count: 50 },
      ],
    }),
  );
  assert.ok(result.epsilon_upper < basic.guarantee.epsilon);
});

test('a Gaussian mixture with one component equals the Gaussian', () => {
  const mixture = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'gaussian_mixture', sigma: 2, shifts: [1], weights: [1] }, count: 10 }],
    }),
  );
  const gaussian = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'gaussian', sigma: 2 }, count: 10 }],
    }),
  );
  assertClose(mixture.epsilon_upper, gaussian.epsilon_upper, 1e-3, 'mixture vs gaussian');
});

test('errors: unreachable δ, bad mechanisms, bad discretization', () => {
  const unreachable = calc.compute({
    op: 'compose',
    method: 'pld',
    delta: 1e-6,
    items: [{ guarantee: { type: 'approx', epsilon: 0.1, delta: 1e-6 }, count: 10 }],
  });
  // Below the items' mass at infinite loss, 1 − (1 − 1e-6)^10 ≈ 9.99996e-6, no finite ε holds (dp_accounting's
  // get_epsilon_for_delta answers math.inf there): a vacuous answer, not an error.
  assert.equal(unreachable.ok, true);
  assert.equal(unreachable.result.epsilon_upper, 'infinity');
  assert.equal(unreachable.result.vacuous, true);
  assert.equal(unreachable.result.guarantee.delta, 1);
  assert.match(unreachable.result.note, /9\.99.*no finite ε holds/);
  assertError(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: subsampledGaussian(1, 1.5), count: 10 }],
    }),
    'items.0.mechanism.rate',
  );
  assertError(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'gaussian', sigma: -1 }, count: 10 }],
    }),
    'items.0.mechanism.sigma',
  );
  assertError(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 10 }],
      discretization: -1,
    }),
    'discretization',
  );
  assertError(
    calc.compute({ op: 'compose', method: 'pld', items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 10 }] }),
    'delta',
  );
  assertError(
    calc.compute({
      op: 'profile',
      items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 10 }],
      epsilons: [1, NaN],
    }),
    'epsilons.1',
  );
});

// Reproducers of defects found in the PLD engine. Exact values: the Gaussian profile (Balle & Wang 2018, Thm 8) at the composed
// μ = √(Σ Tᵢ (Δᵢ/σᵢ)²), evaluated with mpmath at 50 digits (bisection on δ(ε)).
const compose = (delta, items, extra = {}) => calc.compute({ op: 'compose', method: 'pld', delta, items, ...extra });
const gaussianItem = (sigma, sensitivity, count) => ({ mechanism: { type: 'gaussian', sigma, sensitivity }, count });
const statedFloor = (message) => Number(/larger than ([0-9.e+-]+)/.exec(message)[1]);

test('tiny δ gives a bracket around the exact ε or a refusal stating the smallest certifiable δ', () => {
  const rows = [
    // [items, δ, exact ε at δ, exact ε at 1e-9]
    [
      [gaussianItem(3.720215223703875, 2.1566031862601975, 1793)],
      9.221354022698761e-15,
      488.45209614296846,
      447.60087343408054,
    ],
    [[gaussianItem(1.40157, 0.87248, 67), gaussianItem(2.15092, 1, 74)], 1.16e-15, 71.64742512367143, 59.1232852573599],
    [[gaussianItem(59.29, 1, 2220)], 2.13e-13, 5.821057061776518, 4.79804138941855],
  ];
  for (const [items, delta, exact, exactAt1e9] of rows) {
    const response = compose(delta, items);
    if (response.ok) {
      assert.ok(response.result.epsilon_upper >= exact, `upper ${response.result.epsilon_upper} < exact ${exact}`);
      assert.ok(response.result.epsilon_lower <= exact, `lower ${response.result.epsilon_lower} > exact ${exact}`);
    } else {
      assertError(response, 'delta');
      assert.match(response.error.message, /smallest δ this numeric composition can certify/);
      assert.ok(statedFloor(response.error.message) > delta);
    }
    const certifiable = okResult(compose(1e-9, items));
    assert.ok(
      certifiable.epsilon_upper >= exactAt1e9 && certifiable.epsilon_lower <= exactAt1e9,
      `bracket at 1e-9 misses ${exactAt1e9}`,
    );
    assertClose(certifiable.epsilon_upper, exactAt1e9, 3e-3, 'upper at 1e-9');
  }
});

test('δ for ε near δ = 1 is never below the exact δ', () => {
  // Exact δ(ε) by mpmath (50 digits). σ = 1 ×1000 (μ = 31.6) and σ = 0.5 ×100 (μ = 20): δ(ε) is 1 to
  // within 1e-40 for these ε, so 1 in double; the engine used to return 0.9999999999999043 and
  // 0.99999999999998546. σ = 0.5 ×10 (μ = 6.32) at ε = 0.01 and 0.
  const rows = [
    [1, 1000, 1, 1],
    [1, 1000, 0.1, 1],
    [0.5, 100, 5, 1],
    [0.5, 10, 0.01, 0.9984267528223513],
    [0.5, 10, 0, 0.9984345977419975],
  ];
  for (const [sigma, count, epsilon, exact] of rows) {
    const result = okResult(
      calc.compute({ op: 'compose', method: 'pld', epsilon, items: [gaussianItem(sigma, 1, count)] }),
    );
    assert.ok(
      result.delta_upper >= exact,
      `σ=${sigma} ×${count} ε=${epsilon}: delta_upper ${result.delta_upper} < exact ${exact}`,
    );
    assert.ok(result.delta_lower <= exact, `delta_lower ${result.delta_lower} > exact ${exact}`);
  }
});

test('σ = 0.05 gets a narrow bracket (was [45.19, 284.39])', () => {
  // exact ε at δ = 1e-5 for μ = 20: 284.39184949774248 (mpmath)
  const result = okResult(compose(1e-5, [gaussianItem(0.05, 1, 1)]));
  assert.ok(result.epsilon_upper >= 284.3918494977425 && result.epsilon_lower <= 284.3918494977425);
  assert.ok(
    result.epsilon_upper - result.epsilon_lower <= 0.002 * result.epsilon_upper,
    `[${result.epsilon_lower}, ${result.epsilon_upper}]`,
  );
  assert.equal(result.note, undefined);
});

test('Laplace is no longer cut off the grid', () => {
  // dp_accounting b5b0286, from_laplace_mechanism(parameter=b, sampling_prob=q), step 1e-4,
  // pessimistic, self_compose(T).get_epsilon_for_delta(1e-5) (an upper estimate of the exact ε).
  for (const [mechanism, count, reference] of [
    [{ type: 'laplace', scale: 10 }, 1000, 17.423652078499213],
    [{ type: 'laplace', scale: 5 }, 130, 11.07993877592761],
    [{ type: 'poisson_subsampled', rate: 0.5, mechanism: { type: 'laplace', scale: 3 } }, 1, 0.1804745963859981],
  ]) {
    const result = okResult(compose(1e-5, [{ mechanism, count }]));
    assert.ok(result.epsilon_lower <= reference, `lower ${result.epsilon_lower} above dp_accounting ${reference}`);
    assert.ok(
      Math.abs(result.epsilon_upper - reference) <= 5e-4 * reference + 1e-5,
      `upper ${result.epsilon_upper} vs ${reference}`,
    );
  }
});

test('limits are refused before the work, on a field of the request, saying what to change', () => {
  // Gaussians alone are answered exactly (no grid): the limits of the numeric composition are shown
  // on a Laplace and on subsampled Gaussians.
  const started = performance.now();
  const huge = compose(1e-5, [{ mechanism: { type: 'laplace', scale: 1 }, count: 1e9 }]);
  assertError(huge, 'items.0.count', 'numeric');
  assert.match(huge.error.message, /2097152/);
  assert.match(huge.error.message, /Use fewer compositions/);
  assert.doesNotMatch(huge.error.message, /discretization_interval|NaN|Infinity/);
  assert.ok(performance.now() - started < 5000, 'refused without doing the work');
  const tinySigma = compose(1e-5, [{ mechanism: subsampledGaussian(0.001, 0.5), count: 1 }]);
  assertError(tinySigma, 'items.0.mechanism.mechanism.sigma', 'numeric');
  assert.match(tinySigma.error.message, /σ = 0\.001/);
  const numeric = [{ mechanism: subsampledGaussian(1, 0.5), count: 1 }];
  const tinyStep = compose(1e-5, numeric, { discretization: 1e-300 });
  assertError(tinyStep, 'discretization', 'numeric');
  assert.doesNotMatch(tinyStep.error.message, /NaN|Infinity|discretization_interval/);
  assertError(compose(1e-5, numeric, { discretization: { interval: 1e-300 } }), 'discretization.interval', 'numeric');
  const nested = (inner) => [{ mechanism: { type: 'poisson_subsampled', rate: 0.5, mechanism: inner }, count: 1 }];
  assertError(compose(1e-5, nested({ type: 'gaussian', sigma: -1 })), 'items.0.mechanism.mechanism.sigma');
  assertError(
    compose(1e-5, nested({ type: 'laplace', scale: 1, sensitivity: 0 })),
    'items.0.mechanism.mechanism.sensitivity',
  );
  assertError(
    compose(1e-5, [
      {
        mechanism: {
          type: 'poisson_subsampled',
          rate: 1e-200,
          mechanism: { type: 'poisson_subsampled', rate: 1e-200, mechanism: { type: 'gaussian', sigma: 1 } },
        },
        count: 1,
      },
    ]),
    'items.0.mechanism.rate',
  );
});

// Fuzz reproducers (tests/fuzz): every error names a field of the request, in words.
const noJargon = (response) =>
  assert.doesNotMatch(response.error.message, /NaN|Infinity|discretization_interval|tail_mass_truncation/);

test('fuzz: δ too small for double precision is refused on delta, not on an absent tail_mass_truncation', () => {
  for (const extra of [{}, { discretization: 0.0036568359864860922 }]) {
    const response = compose(5e-324, [{ mechanism: subsampledGaussian(1e-150, 0.5), count: 2 }], extra);
    assertError(response, 'delta');
    assert.match(response.error.message, /2\.2\d*e-307/);
    noJargon(response);
  }
});

test('fuzz: (ε, δ) and pure items with ε beyond 700 are refused on their epsilon (were "needs about NaN grid points")', () => {
  for (const guarantee of [
    { type: 'pure', epsilon: 800 },
    { type: 'pure', epsilon: 1e200 },
    { type: 'approx', epsilon: 1.7976931348623157e308, delta: 1e-7 },
  ]) {
    for (const count of [1, 45]) {
      const response = compose(1e-6, [
        { mechanism: { type: 'gaussian', sigma: 1 }, count: 2 },
        { guarantee, count },
      ]);
      assertError(response, 'items.1.guarantee.epsilon');
      assert.match(response.error.message, /at most 700/);
      noJargon(response);
    }
  }
  const profile = calc.compute({
    op: 'profile',
    items: [{ guarantee: { type: 'approx', epsilon: 1e200, delta: 0.5 }, count: 45 }],
    epsilons: [0, 1],
  });
  assertError(profile, 'items.0.guarantee.epsilon');
  // ε = 700 itself is still composed: its δ at ε = 1 is 1 − e^(1−700) ≈ 1 (Kairouz, Oh, Viswanath 2015).
  okResult(
    calc.compute({ op: 'profile', items: [{ guarantee: { type: 'pure', epsilon: 700 }, count: 1 }], epsilons: [1] }),
  );
});

test('fuzz: σ beyond 1e100 × the shift, or below 1e-100 × it, is refused on sigma (were "needs about NaN grid points", "loss reaches NaN")', () => {
  const cases = [
    [{ type: 'gaussian_mixture', sigma: 1e300, shifts: [0.1, 0.5], weights: [0.5, 0.5] }, 'items.0.mechanism.sigma'],
    [
      { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1e300 } },
      'items.0.mechanism.mechanism.sigma',
    ],
    [
      { type: 'poisson_subsampled', rate: 0.17858362508962433, mechanism: { type: 'gaussian', sigma: 1e150 } },
      'items.0.mechanism.mechanism.sigma',
    ],
    [
      {
        type: 'gaussian_mixture',
        sigma: 2.8235655332262204,
        shifts: [0.278, 0.217, -1e308],
        weights: [0.18, 0.36, 0.46],
      },
      'items.0.mechanism.sigma',
    ],
    [{ type: 'gaussian', sigma: 1e-200, sensitivity: 1e200 }, 'items.0.mechanism.sigma'],
  ];
  for (const [mechanism, field] of cases) {
    for (const count of [1, 45]) {
      const response = compose(1e-6, [{ mechanism, count }]);
      assertError(response, field);
      assert.match(response.error.message, /1e100|1e-100/);
      noJargon(response);
    }
  }
  // A Gaussian alone is answered exactly (Dong, Roth, Su 2019, Cor. 3.3; Balle & Wang 2018): with
  // σ = 1e300, μ = Δ/σ is at most 1e-300 and δ(0) = 2Φ(μ/2) − 1 ≈ 0.4 μ is below 1e-6, so ε = 0.
  for (const mechanism of [
    { type: 'gaussian', sigma: 1e300 },
    { type: 'gaussian', sigma: 1e300, sensitivity: 0.134 },
  ]) {
    assert.equal(okResult(compose(1e-6, [{ mechanism, count: 45 }])).epsilon_upper, 0);
  }
  // σ = 1e99 is still resolved: ε = 0 at δ = 1e-6, since δ(0) = 2Φ(1/(2σ)) − 1 ≈ 4e-100 (Balle & Wang 2018);
  // so is its subsampled form (δ(0) smaller still).
  assert.equal(okResult(compose(1e-6, [gaussianItem(1e99, 1, 45)])).epsilon_upper, 0);
  assert.equal(
    okResult(compose(1e-6, [{ mechanism: subsampledGaussian(1e99, 0.17858362508962433), count: 48 }])).epsilon_upper,
    0,
  );
});

test('fuzz: δ = 1e-300 for a subsampled Gaussian with σ = 7.26e13 is refused, never an ε below the exact one', () => {
  // Its δ(ε = 0) is about 2e-15 (central limit: μ = q √T / σ = 4.4e-15, δ(0) = 2Φ(μ/2) − 1 ≈ 0.4 μ;
  // Dong, Roth, Su 2022, Thm 5), so ε = 0 at a smaller δ would be unsound. The floor is the mass the
  // pessimistic grid cuts off (δ/10 per pass) and the rounding of no point above the grid's top; at
  // δ = 1e-290 the grid's own step (3e-8) is the answer's scale, far above the central-limit
  // ε ≈ 36 μ = 1.6e-13 that δ needs.
  const items = [{ count: 1000, mechanism: subsampledGaussian(7.2593015344349281e13, 0.01) }];
  const response = compose(1e-300, items);
  assertError(response, 'delta');
  assert.ok(statedFloor(response.error.message) > 1e-300, response.error.message);
  const answered = okResult(compose(1e-290, items));
  assert.ok(answered.guarantee.epsilon > 1e-13, JSON.stringify(answered.guarantee));
});

test('fuzz: a mixture shift or weight that is not a number says so in words', () => {
  // seed 11 of `npm run fuzz -- --numeric-share 1`: a NaN shift was reported as "(got NaN)".
  const mixture = (shifts, weights) =>
    calc.compute({
      op: 'profile',
      epsilons: [0.1],
      items: [{ mechanism: { type: 'gaussian_mixture', sigma: 2.29, shifts, weights }, count: 41 }],
    });
  const shift = mixture([2.07, 0.09, NaN, 0.45], [0.29, 0.46, 0.18, 0.07]);
  assertError(shift, 'items.0.mechanism.shifts.2');
  assert.match(shift.error.message, /not a number/);
  const weight = mixture([2.07, 0.09], [NaN, 1]);
  assertError(weight, 'items.0.mechanism.weights.0');
  assert.match(weight.error.message, /not a number/);
});
