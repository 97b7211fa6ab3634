// {op:'tradeoff', of}: what the answer to a request means to an attacker testing membership, the
// trade-off curve β = f(α) (Dong, Roth, Su 2019). Reference values are mpmath evaluations of the
// closed forms and of the exact Neyman–Pearson curves, printed by tests/reference/tradeoff_reference.py
// (the section is named beside each). Criterion of the issue for numeric curves: β ≤ exact + 1e-12
// (no attack does better than reported) and β ≥ exact − 0.005; closed forms within 1e-12 below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

const kAlphas = [1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.9];
// tests/reference/tradeoff_reference.py, at kAlphas.
const exact = {
  // Section 1: G_μ(α) = Φ(Φ⁻¹(1 − α) − μ).
  gaussian1: [
    0.9999997100701369, 0.9999127823898596, 0.9817015315943434, 0.907637751926306, 0.610856308354639,
    0.31717987036400425, 0.15865525393145705, 0.011257914512604765,
  ],
  gaussian3: [
    0.9986403509585607, 0.9602353992924281, 0.5359486937899743, 0.25026625253320306, 0.042857426172889596,
    0.006650634878484805, 0.0013498980316300946, 9.27973516407562e-6,
  ],
  // Section 2: the Laplace mechanism with Δ/b = 1 (Dong, Roth, Su 2019).
  laplace1: [
    0.9999999972817182, 0.9999972817181716, 0.997281718171541, 0.9728171817154095, 0.7281718171540955,
    0.3065662009762019, 0.18393972058572117, 0.036787944117144235,
  ],
  // Section 3: randomized response at ε = 0.5 composed 10 times, exact Neyman–Pearson.
  randomizedResponse: [
    0.9999998515868409, 0.9998515868408975, 0.9398822229323478, 0.7806429925695765, 0.3964933342253986,
    0.14294787665297864, 0.06192202563732039, 0.0029360223535973566,
  ],
  // Section 4: ρ = 0.5 zCDP, the numeric envelope of its profile (α = 0.9 not computed).
  zcdp: [
    0.999999620862825, 0.9998836594379282, 0.9750487932228412, 0.8738540775212623, 0.481398268302056,
    0.18245068259422895, 0.09342865303891563,
  ],
  // Section 4: the RDP curve orders [1.5, 2, 4, 8, 16, 32, 64], ε [0.2, 0.3, 0.7, 1.6, 3.5, 7.5, 15.8].
  rdp: [
    0.9999999459230393, 0.9999771959347673, 0.9904938513102275, 0.9465429974833683, 0.6993891836409353,
    0.3636371771757868, 0.19707000840760786, 0.02304944801014416,
  ],
};
// Section 1: advantage 2Φ(μ/2) − 1; section 2: 1 − e^{−ε/2}.
const gaussianAdvantage1 = 0.3829249225480262;
const laplaceAdvantage1 = 0.3934693402873666;

const gaussian = (sigma, sensitivity = 1) => ({ type: 'gaussian', sigma, sensitivity });
const tradeoff = (of, extra = {}) => okResult(calc.compute({ op: 'tradeoff', of, alphas: kAlphas, ...extra }));

/** The criterion for a numeric curve. */
function assertNumericBeta(result, values, label) {
  values.forEach((value, i) => {
    const beta = result.beta[i];
    assert.ok(beta <= value + 1e-12, `${label}: β(${kAlphas[i]}) = ${beta} above the exact ${value}`);
    assert.ok(beta >= value - 0.005, `${label}: β(${kAlphas[i]}) = ${beta} too far below the exact ${value}`);
    assert.ok(result.beta_upper[i] >= value - 1e-12, `${label}: the bracket's upper side is below the exact value`);
  });
}

/** A closed form: never above the exact value (beyond its last digit), within 1e-12 below. */
function assertClosedFormBeta(result, values, label) {
  values.forEach((value, i) => {
    const beta = result.beta[i];
    assert.ok(beta <= value * (1 + 1e-15), `${label}: β(${kAlphas[i]}) = ${beta} above the exact ${value}`);
    assert.ok(beta >= value - 1e-12, `${label}: β(${kAlphas[i]}) = ${beta} more than 1e-12 below ${value}`);
  });
}

test('exactly Gaussian answers give the μ-GDP curve: groups at kΔ, compositions at μ² = Σ count·μᵢ²', () => {
  const cases = [
    ['a group of 2 records of a Gaussian σ = 2', { op: 'group', k: 2, delta: 1e-5, mechanism: gaussian(2) }, 1],
    ['a group of 3 records of a Gaussian σ = 1', { op: 'group', k: 3, delta: 1e-5, mechanism: gaussian(1) }, 3],
    [
      'PLD composition of 4 Gaussians σ = 2',
      { op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: gaussian(2), count: 4 }] },
      1,
    ],
    [
      'zCDP composition of Gaussians σ = 2 and σ = √(4/3), Δ = 1 (μ² = 1/4 + 3/4)',
      {
        op: 'compose',
        method: 'zcdp',
        items: [
          { mechanism: gaussian(2), count: 1 },
          { mechanism: gaussian(2, Math.sqrt(3)), count: 1 },
        ],
      },
      1,
    ],
    [
      'RDP composition of 9 Gaussians σ = 1',
      { op: 'compose', method: 'rdp', delta: 1e-5, items: [{ mechanism: gaussian(1), count: 9 }] },
      3,
    ],
    ['the profile of one Gaussian', { op: 'profile', epsilons: [1], items: [{ mechanism: gaussian(1), count: 1 }] }, 1],
    [
      'two databases of Gaussian releases σ = 2, two queries each',
      { op: 'databases', method: 'pld', delta: 1e-5, databases: [{ mechanism: gaussian(2), count: 2, queries: 2 }] },
      1,
    ],
  ];
  for (const [label, of, mu] of cases) {
    const result = tradeoff(of);
    assert.equal(result.source, 'gaussian', label);
    assert.ok(result.mu >= mu && result.mu <= mu * (1 + 1e-14), `${label}: μ = ${result.mu}`);
    assertClosedFormBeta(result, mu === 1 ? exact.gaussian1 : exact.gaussian3, label);
    assert.match(result.citation, /Dong, Roth, Su 2019/);
  }
  const advantage = tradeoff({ op: 'group', k: 2, delta: 1e-5, mechanism: gaussian(2) }).advantage;
  assert.ok(advantage >= gaussianAdvantage1 && advantage <= gaussianAdvantage1 + 1e-12, `advantage ${advantage}`);
});

test('numeric answers give the curve of their PLDs: Laplace, randomized response, DP-SGD at sampling rate 1', () => {
  const cases = [
    [
      'a group of 2 records of a Laplace mechanism b = 2 (the Laplace curve at ε = 1, not f_{1, 0})',
      { op: 'group', k: 2, mechanism: { type: 'laplace', scale: 2 } },
      exact.laplace1,
    ],
    [
      'one database of a Laplace release b = 1',
      { op: 'databases', method: 'pld', delta: 1e-5, databases: [{ mechanism: { type: 'laplace', scale: 1 } }] },
      exact.laplace1,
    ],
    [
      '10 pure ε = 0.5 items: randomized response composed 10 times',
      { op: 'compose', method: 'pld', delta: 1e-6, items: [{ guarantee: { type: 'pure', epsilon: 0.5 }, count: 10 }] },
      exact.randomizedResponse,
    ],
    [
      // Every step holds the example: N(1, σ²) against N(0, σ²), 4 times at σ = 2 is μ = 1.
      'DP-SGD, one example, sampling rate 1, σ = 2, 4 steps',
      { op: 'dpsgd', sampling: 'poisson', sampling_rate: 1, group_size: 1, noise_multiplier: 2, steps: 4, delta: 1e-5 },
      exact.gaussian1,
    ],
    [
      // A group of 2 shifts the mean by 2: μ = 2·√4/4 = 1.
      'DP-SGD, a group of 2, sampling rate 1, σ = 4, 4 steps',
      { op: 'dpsgd', sampling: 'poisson', sampling_rate: 1, group_size: 2, noise_multiplier: 4, steps: 4, delta: 1e-5 },
      exact.gaussian1,
    ],
  ];
  for (const [label, of, values] of cases) {
    const result = tradeoff(of);
    assert.equal(result.source, 'pld', label);
    assert.equal(result.mu, undefined, label);
    assertNumericBeta(result, values, label);
    assert.ok(result.discretization > 0 && result.grid_size > 0, `${label}: the grid is reported`);
    result.beta.forEach((beta, i) => assert.ok(beta <= result.beta_upper[i], `${label}: bracket ordered`));
  }
  const laplace = tradeoff(cases[0][1]);
  assert.ok(laplace.advantage >= laplaceAdvantage1 - 1e-12 && laplace.advantage <= laplaceAdvantage1 + 0.005);
});

test('closed-form (ε, δ), zCDP and RDP answers give the curve of their guarantee or whole profile', () => {
  // Section 5: f_{ε,δ} (Kairouz, Oh, Viswanath 2015, Thm 2.1).
  const approx = [
    0.9999899972817182, 0.9999872817181715, 0.9972717181715409, 0.9728071817154096, 0.7281618171540954,
    0.2575119300255979, 0.18393604179130946, 0.03678426532273252,
  ];
  // Section 5, pure ε = 2.
  const pure2 = [
    0.9999999926109439, 0.999992610943901, 0.9926109439010693, 0.9261094390106935, 0.26109439010693497,
    0.09473469826562889, 0.06766764161830635, 0.01353352832366127,
  ];
  const cases = [
    ['an (ε, δ) = (1, 1e-5) guarantee', { guarantee: { type: 'approx', epsilon: 1, delta: 1e-5 } }, approx, 'approx'],
    [
      'a group of 4 records at pure ε = 0.5',
      { op: 'group', k: 4, guarantee: { type: 'pure', epsilon: 0.5 } },
      pure2,
      'pure',
    ],
    [
      'basic composition of 4 pure ε = 0.5 items',
      { op: 'compose', method: 'basic', items: [{ guarantee: { type: 'pure', epsilon: 0.5 }, count: 4 }] },
      pure2,
      'pure',
    ],
    [
      'zCDP composition of two ρ = 0.25 items',
      { op: 'compose', method: 'zcdp', delta: 1e-6, items: [{ guarantee: { type: 'zcdp', rho: 0.25 }, count: 2 }] },
      exact.zcdp,
      'zcdp',
    ],
    [
      'the conversion of a ρ = 0.5 guarantee (its profile, not the converted (ε, δ))',
      { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6 },
      exact.zcdp,
      'zcdp',
    ],
    [
      'an RDP curve',
      {
        guarantee: {
          type: 'rdp',
          orders: [1.5, 2, 4, 8, 16, 32, 64],
          epsilons: [0.2, 0.3, 0.7, 1.6, 3.5, 7.5, 15.8],
        },
      },
      exact.rdp,
      'rdp',
    ],
  ];
  for (const [label, of, values, source] of cases) {
    const result = tradeoff(of);
    assert.equal(result.source, source, label);
    assertClosedFormBeta(result, values, label);
    assert.equal(result.beta_upper, undefined, `${label}: a guarantee's curve has no bracket`);
  }
});

test('the curve for plotting: at least 200 points, log-spaced near 0, TPR = 1 − β', () => {
  const { curve } = tradeoff({ op: 'group', k: 2, mechanism: { type: 'laplace', scale: 2 } });
  assert.ok(curve.alpha.length >= 200);
  assert.equal(curve.beta.length, curve.alpha.length);
  for (let i = 1; i < curve.alpha.length; i += 1) assert.ok(curve.alpha[i] > curve.alpha[i - 1]);
  const positive = curve.alpha.filter((alpha) => alpha > 0);
  assert.ok(positive[0] <= 1e-8, 'down to 1e-9');
  assert.ok(positive.filter((alpha) => alpha < 1e-3).length >= 80, 'dense on a log axis near 0');
  assert.equal(curve.alpha.at(-1), 1);
  curve.beta.forEach((beta, i) => {
    assert.ok(Math.abs(curve.tpr[i] - (1 - beta)) <= 1e-15, 'tpr is 1 − β');
    assert.ok(beta <= curve.beta_upper[i]);
    if (i > 0) assert.ok(beta <= curve.beta[i - 1], 'β decreases');
  });
});

test('tpr_at_fpr is 1 − β(fpr); the posterior of a pure guarantee; reconstruction', () => {
  const fpr = [1e-3, 0.01, 0.1];
  const result = tradeoff(
    { guarantee: { type: 'pure', epsilon: 2 } },
    { alphas: fpr, fpr, prior: 0.1, reconstruction_baselines: [0.01] },
  );
  assert.deepEqual(
    result.tpr_at_fpr.map((point) => point.fpr),
    fpr,
  );
  result.tpr_at_fpr.forEach((point, i) => assert.ok(Math.abs(point.tpr - (1 - result.beta[i])) <= 1e-15));
  // Section 5: with prior 0.1 the largest posterior of pure ε = 2 is 0.1 e²/(0.1 e² + 0.9).
  const posterior = 0.4508530603792838;
  assert.equal(result.posterior.prior, 0.1);
  assert.ok(result.posterior.max_posterior >= posterior && result.posterior.max_posterior <= posterior * (1 + 1e-14));
  // A reconstruction attack with baseline success 1% succeeds at most 1 − f(0.01) (Hayes, Mahloujifar,
  // Balle 2023): e² · 0.01 (section 5, f_{2,0}(0.01) = 0.9261094390106935).
  const success = 1 - 0.9261094390106935;
  assert.ok(result.reconstruction[0].max_success >= success - 1e-15);
  assert.ok(result.reconstruction[0].max_success <= success + 1e-12);
});

test('a group of k records: the group size is reported, and the group is never safer than one record', () => {
  const cases = [
    (k) => ({ op: 'group', k, delta: 1e-5, mechanism: gaussian(4) }),
    (k) => ({ op: 'group', k, mechanism: { type: 'laplace', scale: 4 } }),
    (k) => ({ op: 'group', k, guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-7 } }),
    (k) => ({
      op: 'dpsgd',
      sampling: 'poisson',
      sampling_rate: 0.01,
      group_size: k,
      noise_multiplier: 1,
      steps: 100,
      delta: 1e-5,
    }),
  ];
  for (const request of cases) {
    const group = tradeoff(request(8));
    const one = tradeoff(request(1));
    assert.equal(group.group_size, 8);
    assert.equal(one.group_size, 1);
    group.curve.beta.forEach((beta, i) =>
      assert.ok(beta <= one.curve.beta[i] + 1e-12, `at α = ${group.curve.alpha[i]}`),
    );
    assert.ok(group.advantage > one.advantage);
  }
});

/**
 * The smallest ε with TPR ≤ δ + e^ε α (remove direction) and 1 − α ≤ δ + e^ε β (add direction) at
 * every reported point: the (ε, δ) the curve itself guarantees.
 */
function readBackEpsilon({ alphas, beta }, delta) {
  let epsilon = 0;
  alphas.forEach((alpha, i) => {
    const tpr = 1 - beta[i];
    if (tpr > delta && alpha > 0) epsilon = Math.max(epsilon, Math.log((tpr - delta) / alpha));
    if (1 - alpha > delta && beta[i] > 0) epsilon = Math.max(epsilon, Math.log((1 - alpha - delta) / beta[i]));
  });
  return epsilon;
}

const dense = Array.from({ length: 4001 }, (_, i) => 10 ** (-12 + (12 * i) / 4000));

// DP-SGD for a group of 4 examples, as both tests below account it.
const dpsgdGroupOf4 = {
  op: 'dpsgd',
  sampling: 'poisson',
  sampling_rate: 0.01,
  group_size: 4,
  noise_multiplier: 2,
  steps: 500,
  delta: 1e-5,
};

test('a PLD curve promises no more than the ε (or δ) answer of the same request', () => {
  const subsampled = { type: 'poisson_subsampled', rate: 0.01, mechanism: gaussian(1) };
  const requests = [
    { op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: subsampled, count: 1000 }] },
    { op: 'compose', method: 'pld', delta: 1e-3, discretization: 1e-3, items: [{ mechanism: subsampled, count: 300 }] },
    dpsgdGroupOf4,
    {
      op: 'databases',
      method: 'pld',
      delta: 1e-6,
      databases: [
        { mechanism: { type: 'laplace', scale: 20 }, count: 10 },
        { guarantee: { type: 'approx', epsilon: 0.1, delta: 1e-8 }, count: 5, queries: 2 },
      ],
      constraint: { type: 'at_most', m: 6 },
    },
  ];
  for (const request of requests) {
    const label = `${request.op} ${request.method ?? ''}`;
    const epsilon = okResult(calc.compute(request)).guarantee.epsilon;
    const result = okResult(calc.compute({ op: 'tradeoff', of: request, alphas: dense }));
    assert.equal(result.source, 'pld', label);
    // The reported curve: never better than the answer, and not far from it (the same PLDs).
    const fromCurve = readBackEpsilon({ alphas: result.curve.alpha, beta: result.curve.beta }, request.delta);
    assert.ok(fromCurve >= epsilon, `${label}: the curve gives ε ${fromCurve}, below the answer ${epsilon}`);
    assert.ok(fromCurve <= epsilon * 1.01, `${label}: the curve gives ε ${fromCurve}, far above ${epsilon}`);
    // 4001 rates of our own choosing approach the answer from below, within the sampling's loss.
    const fromDense = readBackEpsilon(result, request.delta);
    assert.ok(fromDense <= fromCurve * (1 + 1e-9), label);
    assert.ok(fromDense >= epsilon * (1 - 1e-4), `${label}: ${fromDense} against ${epsilon}`);
  }
  // A δ answer at a given ε: the δ read back from the curve at that ε is never below it.
  const atEpsilon = { op: 'compose', method: 'pld', epsilon: 1, items: [{ mechanism: subsampled, count: 1000 }] };
  const delta = okResult(calc.compute(atEpsilon)).guarantee.delta;
  const { curve } = okResult(calc.compute({ op: 'tradeoff', of: atEpsilon }));
  const readBack = Math.max(...curve.alpha.map((alpha, i) => 1 - curve.beta[i] - Math.E * alpha));
  assert.ok(readBack >= delta && readBack <= delta * 1.01, `δ ${readBack} read back against the answer ${delta}`);
});

/** A 'databases' request with method 'pld' at δ = 1e-5 over `databases` (its classes). */
const pldDatabases = (databases, more = {}) => ({ op: 'databases', method: 'pld', delta: 1e-5, databases, ...more });

test('several databases: the curve comes from the PLDs the ε answer is read from, as narrow as that answer', () => {
  // 200 releases of Laplace b = 10 and 40 of b = 5: the answer refines its grid to meet its accuracy;
  // one composition on the default grid instead left β_upper − β at 0.17 here, and its curve read
  // back ε 5e-4 above the answer. The criterion β ≥ exact − 0.005 holds when β_upper (≥ exact: the
  // optimistic PLD) is within 0.005 of β.
  const request = pldDatabases([
    { mechanism: { type: 'laplace', scale: 10 }, count: 2, queries: 100 },
    { mechanism: { type: 'laplace', scale: 5 }, count: 2, queries: 20 },
  ]);
  const answer = okResult(calc.compute(request));
  const result = okResult(calc.compute({ op: 'tradeoff', of: request, alphas: kAlphas }));
  assert.equal(result.grid_size, answer.grid_size);
  result.beta.forEach((beta, i) => {
    assert.ok(result.beta_upper[i] - beta <= 0.005, `α ${kAlphas[i]}: β in [${beta}, ${result.beta_upper[i]}]`);
  });
  const fromCurve = readBackEpsilon({ alphas: result.curve.alpha, beta: result.curve.beta }, request.delta);
  assert.ok(fromCurve >= answer.epsilon_upper && fromCurve <= answer.epsilon_upper * (1 + 1e-6), `ε ${fromCurve}`);
});

test('a trade-off does not depend on what was answered before it: the same response alone and after the answer', () => {
  // The answer keeps its PLDs for its trade-off; they must be exactly those the trade-off composes
  // alone, and only for that very request (here also after a neighbour with another δ, group or length).
  const subsampled = { type: 'poisson_subsampled', rate: 0.01, mechanism: gaussian(1) };
  const compose = { op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: subsampled, count: 1000 }] };
  const dpsgd = dpsgdGroupOf4;
  // 5 epochs at sampling rate 0.01 are the 500 steps of `dpsgd`: the same training.
  const { steps, ...inEpochs } = { ...dpsgd, epochs: 5 };
  assert.equal(steps, 500);
  // Several databases: one kept part per footprint (here 2 Laplace, 1 of each, and 2 Gaussian, whose
  // curve is μ-GDP); its neighbour has the same footprints at another δ.
  const databases = pldDatabases(
    [
      { mechanism: { type: 'laplace', scale: 10 }, count: 3, queries: 10 },
      { mechanism: gaussian(5), count: 3, queries: 5 },
    ],
    { constraint: { type: 'at_most', m: 2 } },
  );
  const cases = [
    [compose, compose, { ...compose, delta: 1e-3 }],
    [dpsgd, dpsgd, { ...dpsgd, group_size: 3 }],
    [inEpochs, dpsgd, { ...dpsgd, steps: 400 }],
    [databases, databases, { ...databases, delta: 1e-3 }],
  ];
  for (const [answered, request, neighbour] of cases) {
    const explain = (of) => okResult(calc.compute({ op: 'tradeoff', of, alphas: kAlphas, fpr: [1e-3], prior: 0.5 }));
    okResult(calc.compute(neighbour));
    const alone = explain(request);
    okResult(calc.compute(answered));
    // The same request with its fields in another order.
    const after = explain(Object.fromEntries(Object.entries(request).reverse()));
    assert.deepEqual(after, alone, request.op);
    okResult(calc.compute(neighbour));
    assert.deepEqual(explain(request), alone, `${request.op} after a neighbour`);
  }
});

test('the advantage is δ(0) of the profile of the same items, within its bracket', () => {
  const items = [{ mechanism: { type: 'poisson_subsampled', rate: 0.05, mechanism: gaussian(0.8) }, count: 50 }];
  const profile = okResult(calc.compute({ op: 'profile', epsilons: [0], items }));
  const { advantage } = tradeoff({ op: 'profile', epsilons: [0], items });
  assert.ok(advantage <= profile.delta_upper[0] * (1 + 1e-12), `${advantage} above ${profile.delta_upper[0]}`);
  assert.ok(advantage >= profile.delta_lower[0], `${advantage} below ${profile.delta_lower[0]}`);
});

test('a vacuous answer gives the vacuous curve', () => {
  const result = tradeoff({ op: 'group', k: 100, guarantee: { type: 'approx', epsilon: 1, delta: 1e-6 } });
  assert.equal(result.vacuous, true);
  assert.equal(result.advantage, 1);
  assert.ok(result.beta.every((beta) => beta === 0));
});

test('`of` is checked as strictly as a request of its op, with errors on its own paths', () => {
  const items = (mechanism) => [{ mechanism, count: 10 }];
  assertError(
    calc.compute({
      op: 'tradeoff',
      of: { op: 'compose', method: 'pld', delta: 1e-5, items: items({ type: 'gaussian', sigma: 1, sensitivty: 1 }) },
    }),
    'of.items.0.mechanism.sensitivty',
  );
  assertError(
    calc.compute({
      op: 'tradeoff',
      of: { op: 'compose', method: 'pld', delta: 1e-5, items: items({ type: 'gaussian', sigma: -1 }) },
    }),
    'of.items.0.mechanism.sigma',
  );
  assertError(
    calc.compute({ op: 'tradeoff', of: { op: 'compose', method: 'pld', items: items(gaussian(1)) } }),
    'of.delta',
  );
  assertError(
    calc.compute({ op: 'tradeoff', of: { op: 'group', k: 0, guarantee: { type: 'pure', epsilon: 1 } } }),
    'of.k',
  );
  assertError(calc.compute({ op: 'tradeoff', of: { guarantee: { type: 'pure', epsilon: 1 }, k: 2 } }), 'of.k');
  assertError(
    calc.compute({ op: 'tradeoff', of: { guarantee: { type: 'approx', epsilon: 1, delta: 2 } } }),
    'of.guarantee.delta',
  );
  assertError(calc.compute({ op: 'tradeoff' }), 'of');
  assertError(calc.compute({ op: 'tradeoff', of: 3 }), 'of');
  assertError(
    calc.compute({ op: 'tradeoff', of: { guarantee: { type: 'pure', epsilon: 1 } }, alphas: [0.1, 2] }),
    'alphas.1',
  );
  assertError(calc.compute({ op: 'tradeoff', of: { guarantee: { type: 'pure', epsilon: 1 } }, prior: 1 }), 'prior');
  assertError(calc.compute({ op: 'tradeoff', of: { guarantee: { type: 'pure', epsilon: 1 } }, alpha: [0.1] }), 'alpha');
  const calibration = calc.compute({
    op: 'tradeoff',
    of: {
      op: 'dpsgd',
      sampling: 'poisson',
      sampling_rate: 0.01,
      group_size: 2,
      steps: 10,
      delta: 1e-5,
      target: { epsilon: 1 },
    },
  });
  assertError(calibration, 'of.target');
  assert.match(calibration.error.message, /noise_multiplier/);
  // The inner op's unsupported answers stay unsupported.
  assertError(
    calc.compute({ op: 'tradeoff', of: { op: 'compose', method: 'basic', items: items(gaussian(1)) } }),
    'of.items.0.mechanism',
    'unsupported',
  );
});

test('an op without a trade-off is an error on of.op naming the ops that have one', () => {
  const others = [
    { op: 'split', method: 'basic', target: { epsilon: 1, delta: 1e-5 }, count: 10 },
    { op: 'calibrate', mechanism: { type: 'gaussian' }, unknown: 'sigma', target: { epsilon: 1, delta: 1e-5 } },
    { op: 'rdp', items: [{ mechanism: gaussian(1), count: 1 }] },
    { op: 'groupwise_plan', relative_error: 0.1, count: 100 },
    { op: 'tradeoff', of: { guarantee: { type: 'pure', epsilon: 1 } } },
    { op: 'nonsense' },
  ];
  for (const of of others) {
    const response = calc.compute({ op: 'tradeoff', of });
    assertError(response, 'of.op');
    assert.match(response.error.message, /'group', 'compose', 'profile', 'convert', 'dpsgd' or 'databases'/);
    assert.match(response.error.message, new RegExp(`op '${of.op}'`));
  }
});
