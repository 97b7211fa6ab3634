// Every numeric op takes the same `discretization` as compose with method 'pld' (the grid of the
// privacy loss distributions), and errors on it land on the request's own field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

const dpsgd = {
  op: 'dpsgd',
  sampling: 'poisson',
  sampling_rate: 0.01,
  group_size: 2,
  steps: 1000,
  delta: 1e-5,
  noise_multiplier: 1,
};

test('dpsgd: a finer grid narrows the bracket, and both brackets hold the same exact ε', () => {
  const coarse = okResult(calc.compute(dpsgd));
  const fine = okResult(calc.compute({ ...dpsgd, discretization: { relative_accuracy: 1e-5 } }));
  const width = (result) => result.guarantee.epsilon - result.epsilon_lower;
  assert.ok(width(fine) < width(coarse) / 10, `${width(fine)} vs ${width(coarse)}`);
  // Both are sound brackets of one exact value: they overlap.
  assert.ok(fine.epsilon_lower <= coarse.guarantee.epsilon && coarse.epsilon_lower <= fine.guarantee.epsilon);
  assert.equal(fine.methods.pld.discretization < coarse.methods.pld.discretization, true);
});

test('dpsgd: discretization errors name the discretization field', () => {
  assertError(calc.compute({ ...dpsgd, discretization: { relative_accuracy: 5 } }), 'discretization.relative_accuracy');
  assertError(calc.compute({ ...dpsgd, discretization: -1 }), 'discretization');
  assertError(
    calc.compute({
      ...dpsgd,
      target: { epsilon: 3 },
      noise_multiplier: undefined,
      discretization: { relative_accuracy: 0 },
    }),
    'discretization.relative_accuracy',
  );
});

test('calibrate: discretization sets the grid of method pld, and applies to no other method', () => {
  const request = {
    op: 'calibrate',
    mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian' } },
    unknown: 'noise_multiplier',
    count: 1000,
    target: { epsilon: 1, delta: 1e-5 },
  };
  const fine = okResult(calc.compute({ ...request, discretization: { relative_accuracy: 1e-4 } }));
  const coarse = okResult(calc.compute(request));
  // dp_accounting 0.6.0 calibrates this to 1.4146308374757288 (tests/core/calibration); both grids
  // land within 0.2% of it, never below it by more than the accountants' resolution.
  for (const answer of [fine, coarse]) assert.ok(Math.abs(answer.noise_multiplier / 1.4146308374757288 - 1) < 2e-3);
  const analytic = {
    op: 'calibrate',
    mechanism: { type: 'gaussian' },
    unknown: 'sigma',
    target: { epsilon: 1, delta: 1e-5 },
  };
  assertError(calc.compute({ ...analytic, discretization: 1e-3 }), 'discretization');
});

test('databases: discretization applies to method pld only', () => {
  const databases = [{ mechanism: { type: 'gaussian', sigma: 5 }, count: 10 }];
  const pld = okResult(
    calc.compute({
      op: 'databases',
      method: 'pld',
      delta: 1e-6,
      databases,
      discretization: { relative_accuracy: 1e-4 },
    }),
  );
  // Ten Gaussians of σ = 5 are one Gaussian of μ = √10/5 (Dong, Roth, Su 2019, Cor. 3.3): the exact
  // ε at δ = 1e-6 is 2.921600590427046 (Balle & Wang 2018, Thm 8, mpmath findroot at 40 digits),
  // inside the bracket, which is at most 4 × 1e-4 wide relative to its top.
  assert.ok(pld.epsilon_lower <= 2.921600590427046 && 2.921600590427046 <= pld.guarantee.epsilon);
  assert.ok(pld.guarantee.epsilon - pld.epsilon_lower <= 4e-4 * pld.guarantee.epsilon);
  assertError(calc.compute({ op: 'databases', method: 'zcdp', databases, discretization: 1e-3 }), 'discretization');
});

test('a bracket wider than asked says how wide, however narrow', () => {
  // A group of 32 of a Poisson-subsampled Laplace mechanism at relative_accuracy 3e-6: refinement
  // stops at a bracket about 1.3e-5 of ε wide, more than 4 × 3e-6, and the note says so. Its width
  // in percent has two significant digits, rounded up (it once read "0% wide").
  const result = okResult(
    calc.compute({
      op: 'group',
      k: 32,
      delta: 1e-5,
      mechanism: { type: 'poisson_subsampled', rate: 0.02, mechanism: { type: 'laplace', scale: 1.5 } },
      discretization: { relative_accuracy: 3e-6 },
    }),
  );
  const percent = ((result.epsilon_upper - result.epsilon_lower) / result.epsilon_upper) * 100;
  assert.ok(percent > 4 * 3e-6 * 100, `the bracket is wider than asked (${percent}%)`);
  const shown = Number(result.note.match(/is ([\d.]+)% wide/)?.[1]);
  assert.ok(shown >= percent && shown <= percent * 1.1, `${shown}% shown for ${percent}%`);
});
