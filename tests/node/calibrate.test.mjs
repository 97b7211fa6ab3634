// op 'calibrate' through the built JS API: every answer composed back with the op a user would
// call ('compose', or 'group' for the exact k-fold Gaussian) never exceeds the target and is within
// 1% of it; values against mpmath and dp_accounting; progress, cancel and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

function assertMeetsWithinOnePercent(epsilon, target, label) {
  assert.ok(epsilon <= target, `${label}: ${epsilon} exceeds the target ${target}`);
  assert.ok(epsilon >= 0.99 * target, `${label}: ${epsilon} is more than 1% below the target ${target}`);
}

const laplace = { type: 'laplace', sensitivity: 2 };
const gaussian = { type: 'gaussian', sensitivity: 2 };
const dpsgd = (rate, clipNorm) => ({
  type: 'poisson_subsampled',
  rate,
  mechanism: { type: 'gaussian', sensitivity: clipNorm },
});

test('Laplace scale: basic, optimal and pld answers compose back under the target', () => {
  const target = { epsilon: 1, delta: 1e-5 };
  for (const count of [1, 10, 100]) {
    const basic = okResult(
      calc.compute({ op: 'calibrate', mechanism: laplace, unknown: 'scale', count, method: 'basic', target }),
    );
    const mechanism = { ...laplace, scale: basic.scale };
    const backBasic = okResult(calc.compute({ op: 'compose', method: 'basic', items: [{ mechanism, count }] }));
    assertMeetsWithinOnePercent(backBasic.guarantee.epsilon, 1, `basic ${count}`);

    const optimal = okResult(
      calc.compute({ op: 'calibrate', mechanism: laplace, unknown: 'scale', count, method: 'optimal', target }),
    );
    const backOptimal = okResult(
      calc.compute({
        op: 'compose',
        method: 'optimal',
        delta: target.delta,
        items: [{ mechanism: { ...laplace, scale: optimal.scale }, count }],
      }),
    );
    assertMeetsWithinOnePercent(backOptimal.guarantee.epsilon, 1, `optimal ${count}`);
    assert.equal(backOptimal.guarantee.epsilon, optimal.guarantee.epsilon);

    const pld = okResult(calc.compute({ op: 'calibrate', mechanism: laplace, unknown: 'scale', count, target }));
    const backPld = okResult(
      calc.compute({
        op: 'compose',
        method: 'pld',
        delta: target.delta,
        items: [{ mechanism: { ...laplace, scale: pld.scale }, count }],
      }),
    );
    assertMeetsWithinOnePercent(backPld.guarantee.epsilon, 1, `pld ${count}`);
    assert.equal(backPld.guarantee.epsilon, pld.guarantee.epsilon);
    // The PLD knows the Laplace mechanism, optimal composition only its pure ε: less noise, up to
    // the PLD's own accuracy (its ε is within about 2e-3 of exact; for one use both are nearly exact).
    assert.ok(pld.scale <= optimal.scale * (count === 1 ? 1 + 2e-3 : 1), `${pld.scale} ${optimal.scale}`);
    assert.ok(optimal.scale <= basic.scale, `${optimal.scale} ${basic.scale}`);
  }
});

test('Laplace pure ε: b = count·Δ/ε (Dwork & Roth 2014, Thm 3.16)', () => {
  const result = okResult(
    calc.compute({
      op: 'calibrate',
      mechanism: laplace,
      unknown: 'scale',
      count: 10,
      target: { epsilon: 0.5, delta: 0 },
    }),
  );
  assert.equal(result.scale, 40);
  assert.deepEqual(result.guarantee, { type: 'approx', epsilon: 0.5, delta: 0 });
  assert.equal(result.method, 'Basic composition');
});

test('Gaussian σ: analytic (default) against mpmath, composed back exactly with op group', () => {
  // σ* from Balle & Wang 2018, Thm 8 solved in mpmath at 50 digits (tests/core/calibration_noise_test.cpp).
  for (const [epsilon, delta, count, sensitivity, exact] of [
    [1, 1e-5, 1, 1, 3.7306316348159418],
    [0.5, 1e-6, 100, 1, 80.57618480725044],
    [8, 1e-10, 1000, 2, 52.746110187780424],
  ]) {
    const result = okResult(
      calc.compute({
        op: 'calibrate',
        mechanism: { type: 'gaussian', sensitivity },
        unknown: 'sigma',
        count,
        target: { epsilon, delta },
      }),
    );
    assertClose(result.sigma, exact, 1e-8, `σ for ε=${epsilon}`);
    assert.ok(result.sigma >= exact * (1 - 1e-13));
    assert.equal(result.citation, 'Balle & Wang 2018, Thm 8');
    // op 'group' reports the k-fold composition of the same Gaussian (a Gaussian with σ/√k).
    const back = okResult(
      calc.compute({ op: 'group', k: count, delta, mechanism: { type: 'gaussian', sigma: result.sigma, sensitivity } }),
    );
    assertMeetsWithinOnePercent(back.composition.guarantee.epsilon, epsilon, `group k=${count}`);
    assert.ok(result.bracket.low < result.sigma && result.bracket.high === result.sigma);
  }
});

test('Gaussian σ: zcdp and pld compose back under the target', () => {
  const target = { epsilon: 1, delta: 1e-6 };
  const zcdp = okResult(
    calc.compute({ op: 'calibrate', mechanism: gaussian, unknown: 'sigma', count: 50, method: 'zcdp', target }),
  );
  const backZcdp = okResult(
    calc.compute({
      op: 'compose',
      method: 'zcdp',
      delta: target.delta,
      items: [{ mechanism: { ...gaussian, sigma: zcdp.sigma }, count: 50 }],
    }),
  );
  assertMeetsWithinOnePercent(backZcdp.approx.epsilon, 1, 'zcdp');
  const pld = okResult(
    calc.compute({ op: 'calibrate', mechanism: gaussian, unknown: 'sigma', count: 50, method: 'pld', target }),
  );
  const backPld = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: target.delta,
      items: [{ mechanism: { ...gaussian, sigma: pld.sigma }, count: 50 }],
    }),
  );
  assertMeetsWithinOnePercent(backPld.guarantee.epsilon, 1, 'pld');
  assert.ok(pld.sigma < zcdp.sigma);
});

test('DP-SGD noise multiplier against dp_accounting, composed back with σ = noise multiplier × clip norm', () => {
  // dp_accounting b5b0286 (0.6.0) calibrate_dp_mechanism, PLDAccountant(value_discretization_interval=1e-4),
  // SelfComposed(PoissonSampled(q, Gaussian(z)), T), ExplicitBracketInterval(0.3, 10), tol 1e-6.
  for (const [rate, steps, epsilon, delta, reference] of [
    [0.01, 1000, 1, 1e-5, 1.4146308374757288],
    [0.01, 10000, 8, 1e-5, 0.8825307316256692],
  ]) {
    const clipNorm = 0.5;
    const result = okResult(
      calc.compute({
        op: 'calibrate',
        mechanism: dpsgd(rate, clipNorm),
        unknown: 'noise_multiplier',
        count: steps,
        target: { epsilon, delta },
      }),
    );
    assertClose(result.noise_multiplier, reference, 2e-3, `T=${steps}`);
    assert.equal(result.sigma, result.noise_multiplier * clipNorm);
    const back = okResult(
      calc.compute({
        op: 'compose',
        method: 'pld',
        delta,
        items: [
          {
            count: steps,
            mechanism: {
              type: 'poisson_subsampled',
              rate,
              mechanism: { type: 'gaussian', sigma: result.noise_multiplier * clipNorm, sensitivity: clipNorm },
            },
          },
        ],
      }),
    );
    assertMeetsWithinOnePercent(back.guarantee.epsilon, epsilon, `T=${steps}`);
    assert.equal(back.guarantee.epsilon, result.guarantee.epsilon);
    assert.equal(result.tolerance, 1e-3);
  }
});

test('the noise multiplier does not depend on the clip norm; σ scales with it', () => {
  const request = (clipNorm) => ({
    op: 'calibrate',
    mechanism: dpsgd(0.01, clipNorm),
    unknown: 'noise_multiplier',
    count: 100,
    target: { epsilon: 1, delta: 1e-5 },
  });
  const one = okResult(calc.compute(request(1)));
  const four = okResult(calc.compute(request(4)));
  assertClose(four.noise_multiplier, one.noise_multiplier, 1e-12, 'noise multiplier');
  assertClose(four.sigma, 4 * one.sigma, 1e-12, 'σ');
});

test('progress rises during a PLD calibration, and returning false cancels it', () => {
  const request = {
    op: 'calibrate',
    mechanism: dpsgd(0.01, 1),
    unknown: 'noise_multiplier',
    count: 1000,
    target: { epsilon: 1, delta: 1e-5 },
  };
  const fractions = [];
  okResult(
    calc.compute(request, {
      onProgress: (fraction) => {
        fractions.push(fraction);
      },
    }),
  );
  assert.ok(fractions.length > 3);
  assert.ok(fractions.every((value, i) => value >= 0 && value < 1 && (i === 0 || value >= fractions[i - 1])));
  const cancelled = calc.compute(request, { onProgress: (fraction) => fraction < 0.2 });
  assertError(cancelled, '', 'cancelled');
});

test('errors name the exact field', () => {
  const base = {
    op: 'calibrate',
    mechanism: { type: 'gaussian' },
    unknown: 'sigma',
    target: { epsilon: 1, delta: 1e-5 },
  };
  assertError(calc.compute({ ...base, mechanism: undefined }), 'mechanism');
  assertError(calc.compute({ ...base, mechanism: { type: 'gaussian', sigma: 1 } }), 'mechanism.sigma');
  assertError(calc.compute({ ...base, unknown: 'scale' }), 'unknown');
  assertError(calc.compute({ ...base, unknown: undefined }), 'unknown');
  assertError(calc.compute({ ...base, count: 1.5 }), 'count');
  assertError(calc.compute({ ...base, method: 'optimal' }), 'method');
  assertError(calc.compute({ ...base, target: { epsilon: 1 } }), 'target.delta');
  assertError(calc.compute({ ...base, target: { epsilon: 1, delta: 0 } }), 'target.delta');
  assertError(calc.compute({ ...base, target: { epsilon: Number.NaN, delta: 1e-5 } }), 'target.epsilon');
  // A pure target: Laplace noise meets it under basic composition only.
  assertError(
    calc.compute({
      ...base,
      mechanism: { type: 'laplace' },
      unknown: 'scale',
      method: 'pld',
      target: { epsilon: 1, delta: 0 },
    }),
    'method',
    'unsupported',
  );
  assertError(calc.compute({ ...base, mechanism: dpsgd(0, 1), unknown: 'noise_multiplier' }), 'mechanism.rate');
  assertError(
    calc.compute({ ...base, mechanism: dpsgd(0.1, -1), unknown: 'noise_multiplier' }),
    'mechanism.mechanism.sensitivity',
  );
  assertError(
    calc.compute({
      ...base,
      mechanism: dpsgd(0.1, 1),
      unknown: 'noise_multiplier',
      target: { epsilon: 1, delta: 1e-300 },
      count: 1000,
    }),
    'target.delta',
  );
  // No noise in [1e-100, 1e100] × Δ: the message says which limit and what to change.
  const unreachable = calc.compute({
    ...base,
    mechanism: { type: 'laplace' },
    unknown: 'scale',
    count: 1e6,
    target: { epsilon: 1e-300, delta: 0 },
  });
  assertError(unreachable, 'target.epsilon');
  assert.match(unreachable.error.message, /largest noise searched \(1e\+100 × the sensitivity\)/);
});
