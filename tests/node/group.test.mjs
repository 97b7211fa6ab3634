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
    calc.compute({ op: 'group', k: 2, mechanism: { type: 'gaussian', sigma: -1 }, delta: 1e-5 }),
    'mechanism.sigma',
  );
  assertError(calc.compute({ op: 'group', k: 2, mechanism: { type: 'laplace', scale: -1 } }), 'mechanism.scale');
  assertError(calc.compute({ op: 'group', k: 2 ** 60, guarantee: approx }), 'k');
});

// Exact ε of one release for a group of k: the mixture pair of Schuchardt, Stoian, Kosmala,
// Günnemann 2024 integrated with mpmath at 50 digits (tests/reference/group_subsampled_reference.py;
// dp_accounting's mixture-of-Gaussians PLD at step 1e-4 agrees to 1e-8 relative).
const kSubsampledGroups = [
  { k: 4, rate: 0.01, sigma: 1, epsilon: 1.0502020980216338 },
  { k: 8, rate: 0.1, sigma: 2, epsilon: 3.8800281404484513 },
  { k: 32, rate: 0.02, sigma: 1.5, epsilon: 6.541129054249721 },
];
const subsampled = (rate, sigma, inner = 'gaussian') =>
  inner === 'gaussian'
    ? { type: 'poisson_subsampled', rate, mechanism: { type: 'gaussian', sigma } }
    : { type: 'poisson_subsampled', rate, mechanism: { type: 'laplace', scale: sigma } };

test("a subsampled Gaussian's group: its mixture pair composed numerically brackets the exact ε", () => {
  for (const { k, rate, sigma, epsilon } of kSubsampledGroups) {
    const result = okResult(calc.compute({ op: 'group', k, delta: 1e-5, mechanism: subsampled(rate, sigma) }));
    const where = `k ${k}, rate ${rate}, σ ${sigma}`;
    assert.ok(
      result.epsilon_lower <= epsilon && epsilon <= result.epsilon_upper,
      `${where}: ${JSON.stringify(result)}`,
    );
    assert.ok(result.epsilon_upper <= epsilon * 1.005, `${where}: within 0.5% of exact`);
    assert.deepEqual(result.guarantee, { type: 'approx', epsilon: result.epsilon_upper, delta: 1e-5 });
    assert.match(result.citation, /Schuchardt, Stoian, Kosmala, Günnemann 2024/);
  }
  // A tighter bracket when asked for, still around the exact value.
  const { k, rate, sigma, epsilon } = kSubsampledGroups[0];
  const tight = okResult(
    calc.compute({
      op: 'group',
      k,
      delta: 1e-5,
      mechanism: subsampled(rate, sigma),
      discretization: { relative_accuracy: 1e-6 },
    }),
  );
  assert.ok(tight.epsilon_lower <= epsilon && epsilon <= tight.epsilon_upper);
  assert.ok(tight.epsilon_upper - tight.epsilon_lower <= 4e-6 * tight.epsilon_upper);
});

test("a subsampled group's trade-off: sound against the exact pair, consistent with the ε answer", () => {
  const { k, rate, sigma } = kSubsampledGroups[1];
  const of = { op: 'group', k, delta: 1e-5, mechanism: subsampled(rate, sigma) };
  const answer = okResult(calc.compute(of));
  const tradeoff = okResult(calc.compute({ op: 'tradeoff', of, alphas: [0.001, 0.01, 0.1] }));
  assert.equal(tradeoff.group_size, k);
  // β of the exact pair's remove direction (tests/reference/group_subsampled_reference.py, mpmath):
  // no reported β may exceed it (the reported curve bounds every test from below).
  const exactRemove = [0.9924063163806642, 0.9602659462027255, 0.7926379278264741];
  tradeoff.alphas.forEach((alpha, i) => {
    assert.ok(tradeoff.beta[i] <= exactRemove[i] + 1e-12, `α ${alpha}: β ${tradeoff.beta[i]} above the exact pair`);
    // The curve says no more than the ε answer does: f(α) ≥ 1 − δ − e^ε α (Kairouz, Oh, Viswanath 2015).
    const line = 1 - 1e-5 - Math.exp(answer.epsilon_upper) * alpha;
    assert.ok(tradeoff.beta[i] >= line - 1e-12, `α ${alpha}: β ${tradeoff.beta[i]} below the ε answer's line ${line}`);
  });
  // The add direction's β is higher at these α (0.998, 0.981, 0.838 by the same integration), so the
  // remove direction's is the exact trade-off there: the answer is within 0.005 of it.
  tradeoff.alphas.forEach((alpha, i) => assert.ok(tradeoff.beta[i] >= exactRemove[i] - 0.005, `α ${alpha}`));
});

test('a subsampled group: the limits and what does not apply are errors on their fields', () => {
  assertError(
    calc.compute({ op: 'group', k: 100001, delta: 1e-5, mechanism: subsampled(0.01, 1) }),
    'k',
    'invalid_argument',
  );
  assertError(calc.compute({ op: 'group', k: 4, mechanism: subsampled(0.01, 1) }), 'delta');
  assertError(
    calc.compute({ op: 'group', k: 4, delta: 1e-5, mechanism: { type: 'gaussian', sigma: 1 }, discretization: 1e-3 }),
    'discretization',
  );
  assertError(
    calc.compute({ op: 'group', k: 4, guarantee: { type: 'pure', epsilon: 1 }, discretization: 1e-3 }),
    'discretization',
  );
  // Randomized response has a pair under substitution only, Poisson sampling under add/remove only:
  // no relation serves both, and that stays a refusal.
  const rr = { type: 'randomized_response', noise_parameter: 0.5, num_buckets: 4 };
  const neither = {
    op: 'group',
    k: 4,
    delta: 1e-5,
    mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: rr },
  };
  assertError(calc.compute(neither), 'mechanism.type');
  assertError(calc.compute({ ...neither, relation: 'substitute' }), 'relation');
});

// Mechanisms with no group transform: group privacy (Vadhan 2017, Lemma 2.2) over one record's privacy
// profile. Exact references: the same bound over the exact profile, mpmath at 50 digits
// (tests/reference/group_over_profile_reference.py); a sample of all 100 records is the inner mechanism.
const withoutReplacement = (n, m, mechanism) => ({
  type: 'sampled_without_replacement',
  dataset_size: n,
  sample_size: m,
  mechanism,
});

test("a group without a group transform: group privacy over its privacy profile, above the exact profile's", () => {
  const cases = [
    [withoutReplacement(100, 100, { type: 'gaussian', sigma: 2 }), 4, 11.444425309339106, 'substitute'],
    [withoutReplacement(100, 100, { type: 'gaussian', sigma: 2 }), 8, 35.02953505550191, 'substitute'],
    [{ type: 'poisson_subsampled', rate: 1, mechanism: { type: 'discrete_gaussian', sigma: 1 } }, 3, 19.49164025163624],
    [
      withoutReplacement(100, 100, { type: 'randomized_response', noise_parameter: 0.5, num_buckets: 4 }),
      2,
      3.2188704915159043,
      'substitute',
    ],
  ];
  for (const [mechanism, k, exact, relation] of cases) {
    const request = { op: 'group', k, delta: 1e-5, mechanism, ...(relation ? { relation } : {}) };
    const result = okResult(calc.compute(request));
    const where = `${mechanism.type} of ${mechanism.mechanism.type}, k ${k}`;
    assert.ok(result.guarantee.epsilon >= exact, `${where}: ${result.guarantee.epsilon} below ${exact}`);
    assert.ok(result.guarantee.epsilon <= exact * 1.001, `${where}: within 0.1%`);
    assert.equal(result.guarantee.delta, 1e-5);
    assert.equal(result.per_record.type, 'approx');
    assertClose(result.guarantee.epsilon, k * result.per_record.epsilon, 1e-15, `${where}: k × per-record ε`);
    assert.match(result.method, /Vadhan 2017, Lemma 2\.2/);
    assert.deepEqual(result.citation_key.slice(0, 1), ['vadhan2017complexity']);
    assert.match(result.note, /not a tight analysis/);
  }
});

test('a group without a group transform: monotone in k, never below the tight group where there is one', () => {
  const sampled = withoutReplacement(1000, 10, { type: 'discrete_laplace', scale: 1 });
  let previous = 0;
  for (const k of [1, 2, 4, 8, 16]) {
    const { epsilon } = okResult(
      calc.compute({ op: 'group', k, delta: 1e-5, relation: 'substitute', mechanism: sampled }),
    ).guarantee;
    assert.ok(epsilon > previous, `k ${k}`);
    previous = epsilon;
  }
  // k = 1 is one composition of the mechanism, up to the bracket; without delta a pure mechanism's
  // group is pure: k ln(1 + γ(e^ε − 1)) at γ = 10/1000 (Balle, Barthe, Gaboardi 2018; Dwork & Roth 2014,
  // Thm 2.2), and the answer at a δ is no larger.
  const one = okResult(calc.compute({ op: 'group', k: 1, delta: 1e-5, relation: 'substitute', mechanism: sampled }));
  const composed = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      relation: 'substitute',
      items: [{ mechanism: sampled, count: 1 }],
    }),
  );
  assert.ok(one.guarantee.epsilon >= composed.epsilon_lower);
  assertClose(one.guarantee.epsilon, composed.epsilon_upper, 1e-3, 'k = 1');
  const pure = okResult(calc.compute({ op: 'group', k: 4, relation: 'substitute', mechanism: sampled }));
  assert.equal(pure.guarantee.type, 'pure');
  assertClose(pure.guarantee.epsilon, 4 * Math.log1p(0.01 * Math.expm1(1)), 1e-14, 'pure');
  const atDelta = okResult(
    calc.compute({ op: 'group', k: 4, delta: 1e-5, relation: 'substitute', mechanism: sampled }),
  );
  assert.ok(atDelta.guarantee.epsilon <= pure.guarantee.epsilon);
});

test('a group without a group transform: the largest group within a target is solved on the same answers', () => {
  const mechanism = withoutReplacement(1000, 10, { type: 'gaussian', sigma: 1 });
  const solved = okResult(
    calc.compute({ op: 'group', unknown: 'k', relation: 'substitute', mechanism, target: { epsilon: 3, delta: 1e-5 } }),
  );
  const at = (k) =>
    okResult(calc.compute({ op: 'group', k, delta: 1e-5, relation: 'substitute', mechanism })).guarantee;
  assert.ok(at(solved.k).epsilon <= 3 && at(solved.k + 1).epsilon > 3, `k ${solved.k}`);
  assert.deepEqual(solved.guarantee, at(solved.k));
});

test('a group without a group transform: errors name their fields, and its trade-off stays sound', () => {
  const sampled = withoutReplacement(1000, 10, { type: 'gaussian', sigma: 1 });
  const base = { op: 'group', k: 4, delta: 1e-5, relation: 'substitute', mechanism: sampled };
  const withoutDelta = { ...base };
  delete withoutDelta.delta;
  assertError(calc.compute(withoutDelta), 'delta');
  assertError(calc.compute({ ...base, k: 10000 }), 'delta', 'numeric');
  const typo = calc.compute({ ...base, discretisation: 1e-3 });
  assertError(typo, 'discretisation');
  assert.match(typo.error.message, /did you mean 'discretization'/);
  assertError(calc.compute({ ...base, relation: 'add_remove' }), 'relation');
  assertError(
    calc.compute({ ...base, discretization: { tail_mass_truncation: 0.5 } }),
    'discretization.tail_mass_truncation',
  );
  // The group of 3 of all 100 records under Gaussian noise (σ = 2) is the Gaussian at 3Δ, whose exact
  // trade-off Φ(Φ⁻¹(1 − α) − 1.5) (the reference script) no reported β may exceed; and the curve says
  // no less than the answer: β ≥ 1 − δ − e^ε α (Kairouz, Oh, Viswanath 2015).
  const of = { ...base, k: 3, mechanism: withoutReplacement(100, 100, { type: 'gaussian', sigma: 2 }) };
  const answer = okResult(calc.compute(of));
  const curve = okResult(calc.compute({ op: 'tradeoff', of }));
  assert.equal(curve.source, 'profile');
  assert.equal(curve.group_size, 3);
  const exact = [0.9441087745278574, 0.7956966082404343, 0.41353986569385365];
  curve.alphas.forEach((alpha, i) => {
    assert.ok(curve.beta[i] <= exact[i], `α ${alpha}: β ${curve.beta[i]} above the exact group's ${exact[i]}`);
    assert.ok(curve.beta[i] >= 1 - 1e-5 - Math.exp(answer.guarantee.epsilon) * alpha - 1e-12, `α ${alpha}`);
  });
});

// Exact ε of one release for a group of k under Laplace noise: the Laplace mixture pair of Schuchardt,
// Stoian, Kosmala, Günnemann 2024, whose loss inverts in closed form, evaluated with mpmath at 50
// digits (tests/reference/group_subsampled_laplace_reference.py; the quadrature of Schuchardt et al.'s
// own code, tests/reference/schuchardt_laplace_group.py, agrees to 2e-9 relative).
const kLaplaceGroups = [
  { k: 4, rate: 0.01, scale: 1, epsilon: 0.06797998032499865 },
  { k: 8, rate: 0.1, scale: 2, epsilon: 0.5026417965041969 },
  { k: 32, rate: 0.02, scale: 1.5, epsilon: 0.6002883559917098 },
  { k: 3, rate: 0.5, scale: 1, epsilon: 1.8602810075326808 },
];

test("a subsampled Laplace mechanism's group: its Laplace mixture composed numerically brackets the exact ε", () => {
  for (const { k, rate, scale, epsilon } of kLaplaceGroups) {
    const result = okResult(
      calc.compute({ op: 'group', k, delta: 1e-5, mechanism: subsampled(rate, scale, 'laplace') }),
    );
    const where = `k ${k}, rate ${rate}, b ${scale}`;
    assert.ok(
      result.epsilon_lower <= epsilon && epsilon <= result.epsilon_upper,
      `${where}: ${JSON.stringify(result)}`,
    );
    assert.ok(result.epsilon_upper <= epsilon * 1.005, `${where}: within 0.5% of exact`);
    assert.deepEqual(result.guarantee, { type: 'approx', epsilon: result.epsilon_upper, delta: 1e-5 });
    assert.match(result.method, /Laplace mixture/);
    assert.match(result.citation, /^Schuchardt, Stoian, Kosmala, Günnemann 2024/);
  }
  // The discretization option is read as for the Gaussian case. (Not k = 8: its ε lies within 2e-4 of
  // the top of its loss range, where the lower bound keeps the last cell below the top point mass a
  // step low and so narrows only in proportion to the step; the upper bound, the answer, is 7e-8
  // above exact at this accuracy.)
  const { k, rate, scale, epsilon } = kLaplaceGroups[3];
  const fine = okResult(
    calc.compute({
      op: 'group',
      k,
      delta: 1e-5,
      mechanism: subsampled(rate, scale, 'laplace'),
      discretization: { relative_accuracy: 1e-6 },
    }),
  );
  assert.ok(fine.epsilon_lower <= epsilon && epsilon <= fine.epsilon_upper);
  assert.ok(fine.epsilon_upper - fine.epsilon_lower <= 4e-6 * fine.epsilon_upper);
});

test('a subsampled Laplace group: k = 1 is the mechanism, and ε grows with k and the rate, falls with the scale', () => {
  const mechanism = subsampled(0.05, 1, 'laplace');
  const single = okResult(calc.compute({ op: 'group', k: 1, delta: 1e-5, mechanism }));
  const composed = okResult(
    calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism, count: 1 }] }),
  );
  assertClose(single.epsilon_upper, composed.epsilon_upper, 1e-9, 'k = 1 against compose');
  const epsilon = (k, rate, scale) =>
    okResult(calc.compute({ op: 'group', k, delta: 1e-5, mechanism: subsampled(rate, scale, 'laplace') }))
      .epsilon_upper;
  let previous = 0;
  for (const k of [1, 2, 4, 8, 16]) {
    const current = epsilon(k, 0.05, 1);
    assert.ok(current > previous, `k ${k}: ${current} after ${previous}`);
    previous = current;
  }
  assert.ok(epsilon(4, 0.05, 1) > epsilon(4, 0.05, 2));
  assert.ok(epsilon(4, 0.1, 1) > epsilon(4, 0.05, 1));
  // Rate 1 is the Laplace mechanism at sensitivity kΔ: ε(δ) = kΔ/b + 2 ln(1 − δ) exactly.
  const exact = 4 / 8 + 2 * Math.log1p(-1e-5);
  const full = epsilon(4, 1, 8);
  assert.ok(full >= exact && full <= exact * 1.005, `${full} against ${exact}`);
});

test("a subsampled Laplace group's trade-off stays below the exact pair's", () => {
  const { k, rate, scale } = kLaplaceGroups[1];
  const of = { op: 'group', k, delta: 1e-5, mechanism: subsampled(rate, scale, 'laplace') };
  const tradeoff = okResult(calc.compute({ op: 'tradeoff', of, alphas: [0.001, 0.01, 0.1] }));
  // β of the exact pair's remove direction (the reference script, mpmath).
  const exactRemove = [0.9983465933633161, 0.983465933671886, 0.8352144287459077];
  tradeoff.alphas.forEach((alpha, i) => {
    assert.ok(tradeoff.beta[i] <= exactRemove[i] + 1e-12, `α ${alpha}: β ${tradeoff.beta[i]}`);
    assert.ok(tradeoff.beta[i] >= exactRemove[i] - 0.005, `α ${alpha}: β ${tradeoff.beta[i]}`);
  });
});

test('a subsampled Laplace group: bad requests are errors on their fields', () => {
  const mechanism = subsampled(0.01, 1, 'laplace');
  assertError(calc.compute({ op: 'group', k: 0, delta: 1e-5, mechanism }), 'k');
  assertError(calc.compute({ op: 'group', k: 2.5, delta: 1e-5, mechanism }), 'k');
  assertError(calc.compute({ op: 'group', k: 100001, delta: 1e-5, mechanism }), 'k');
  // Under substitution the group's pair is unknown: group privacy over the profile bound of one
  // replaced record (advanced joint convexity), never below the add/remove group's.
  const replaced = okResult(calc.compute({ op: 'group', k: 4, delta: 1e-5, mechanism, relation: 'substitute' }));
  const added = okResult(calc.compute({ op: 'group', k: 4, delta: 1e-5, mechanism }));
  assert.ok(replaced.guarantee.epsilon >= added.guarantee.epsilon);
  assertError(
    calc.compute({ op: 'group', k: 4, delta: 1e-5, mechanism: subsampled(0.01, -1, 'laplace') }),
    'mechanism.mechanism.scale',
  );
  // k Δ/b far beyond what e^loss can hold: the scale is what to change.
  assertError(
    calc.compute({ op: 'group', k: 2000, delta: 1e-5, mechanism: subsampled(1, 1, 'laplace') }),
    'mechanism.mechanism.scale',
    'numeric',
  );
  const misspelt = calc.compute({ op: 'group', k: 4, delta: 1e-5, mechanism, discretisation: 1e-3 });
  assertError(misspelt, 'discretisation');
  assert.match(misspelt.error.message, /did you mean 'discretization'\?/);
});
