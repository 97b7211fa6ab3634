// op 'compose' and 'convert' through the built JS API. Expected values: the closed forms evaluated
// with mpmath at 40 digits, and /work/shared/references/public_values.json (copied below with
// their sources).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const pure = (epsilon) => ({ type: 'pure', epsilon });

test('basic: sums of ε and δ (pure items stay pure)', () => {
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'basic',
      items: [
        { guarantee: pure(0.1), count: 10 },
        { guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-6 }, count: 2 },
      ],
    }),
  );
  assertClose(result.guarantee.epsilon, 2, 1e-14, 'epsilon');
  assertClose(result.guarantee.delta, 2e-6, 1e-14, 'delta');
  const pureResult = okResult(
    calc.compute({ op: 'compose', method: 'basic', items: [{ guarantee: pure(0.1), count: 3 }] }),
  );
  assert.equal(pureResult.guarantee.type, 'pure');
  assertClose(pureResult.guarantee.epsilon, 0.3, 1e-14, 'epsilon');
});

test('parallel: the max over items', () => {
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'parallel',
      items: [
        { guarantee: { type: 'approx', epsilon: 0.3, delta: 1e-7 }, count: 4 },
        { guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-9 }, count: 1 },
      ],
    }),
  );
  assertClose(result.guarantee.epsilon, 0.5, 1e-15, 'epsilon');
  assertClose(result.guarantee.delta, 1e-7, 1e-15, 'delta');
});

test("advanced, Dwork–Rothblum–Vadhan, with a given δ'", () => {
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'advanced',
      variant: 'dwork_rothblum_vadhan',
      delta_slack: 1e-5,
      items: [{ guarantee: pure(0.1), count: 100 }],
    }),
  );
  // ε√(2k ln(1/δ')) + kε(e^ε − 1) at ε = 0.1, k = 100, δ' = 1e-5 (mpmath): 5.850235092944557
  assertClose(result.guarantee.epsilon, 5.850235092944557, 1e-12, 'epsilon');
  assertClose(result.guarantee.delta, 1e-5, 1e-12, 'delta');
});

test("advanced, Kairouz–Oh–Viswanath, with a given δ' (and never above basic)", () => {
  const kov = okResult(
    calc.compute({
      op: 'compose',
      method: 'advanced',
      variant: 'kairouz',
      delta_slack: 1e-5,
      items: [{ guarantee: pure(0.1), count: 100 }],
    }),
  );
  // min{kε, kε tanh(ε/2) + ε√(2k ln(e + √(kε²)/δ')), kε tanh(ε/2) + ε√(2k ln(1/δ'))} (mpmath)
  assertClose(kov.guarantee.epsilon, 5.298109661766881, 1e-12, 'epsilon');
  const small = okResult(
    calc.compute({
      op: 'compose',
      method: 'advanced',
      variant: 'kairouz',
      delta_slack: 1e-5,
      items: [{ guarantee: pure(0.1), count: 10 }],
    }),
  );
  assertClose(small.guarantee.epsilon, 1, 1e-14, 'capped at basic composition');
});

test("advanced with a total δ target chooses δ' and meets the target", () => {
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'advanced',
      variant: 'kairouz',
      delta: 1e-5,
      items: [{ guarantee: { type: 'approx', epsilon: 0.1, delta: 1e-8 }, count: 100 }],
    }),
  );
  assert.ok(result.guarantee.delta <= 1e-5 * (1 + 1e-12));
  assert.ok(result.delta_slack > 0 && result.delta_slack < 1e-5);
  assert.ok(result.guarantee.epsilon < 10, 'better than basic');
});

test('optimal composition matches Kairouz–Oh–Viswanath 2015 Thm 3.3 (public_values.json, mpmath 30 digits)', () => {
  const rows = [
    [10, 1e-5, 0.9936911767593359],
    [100, 1e-5, 4.306791372516507],
    [100, 1e-6, 4.7745675881079865],
    [1000, 1e-5, 17.787128449700923],
    [1000, 1e-6, 19.344671447993044],
  ];
  for (const [count, delta, expected] of rows) {
    const result = okResult(
      calc.compute({ op: 'compose', method: 'optimal', delta, items: [{ guarantee: pure(0.1), count }] }),
    );
    assert.ok(result.guarantee.epsilon >= expected * (1 - 1e-12), `k=${count}: an upper bound`);
    assertClose(result.guarantee.epsilon, expected, 1e-9, `k=${count}, δ=${delta}`);
  }
});

test('optimal composition with k = 1e5 and kε₀ = 1e3 answers in log space', () => {
  const result = okResult(
    calc.compute({ op: 'compose', method: 'optimal', delta: 1e-6, items: [{ guarantee: pure(0.01), count: 1e5 }] }),
  );
  assert.ok(
    Number.isFinite(result.guarantee.epsilon) && result.guarantee.epsilon > 0 && result.guarantee.epsilon < 1000,
  );
});

test('an unreachable δ target is an error on delta that states the smallest reachable δ', () => {
  const response = calc.compute({
    op: 'compose',
    method: 'optimal',
    delta: 1e-6,
    items: [{ guarantee: { type: 'approx', epsilon: 0.1, delta: 1e-6 }, count: 10 }],
  });
  assertError(response, 'delta');
  assert.match(response.error.message, /1e-05|1\.0*e-5|9\.99/);
});

test('zCDP: sums of ρ, Gaussian items, pure items as ε²/2, and the conversion to (ε, δ)', () => {
  const result = okResult(
    calc.compute({
      op: 'compose',
      method: 'zcdp',
      delta: 1e-6,
      items: [
        { guarantee: { type: 'zcdp', rho: 0.125 }, count: 2 },
        { mechanism: { type: 'gaussian', sigma: 2, sensitivity: 1 }, count: 1 },
        { guarantee: pure(0.5), count: 1 },
      ],
    }),
  );
  assertClose(result.guarantee.rho, 0.5, 1e-14, 'rho');
  // ρ = 0.5, δ = 1e-6: Canonne–Kamath–Steinke 2020 gives 5.221534 (public_values.json, mpmath)
  assertClose(result.approx.epsilon, 5.221534, 1e-6, 'epsilon');
});

test('convert: zCDP to (ε, δ), both conversions (public_values.json, mpmath)', () => {
  const zcdp = { type: 'zcdp', rho: 0.5 };
  const bs = okResult(
    calc.compute({ op: 'convert', guarantee: zcdp, to: 'approx', delta: 1e-6, conversion: 'bun_steinke' }),
  );
  assertClose(bs.guarantee.epsilon, 5.756522, 1e-6, 'Bun–Steinke');
  const cks = okResult(calc.compute({ op: 'convert', guarantee: zcdp, to: 'approx', delta: 1e-6 }));
  assertClose(cks.guarantee.epsilon, 5.221534, 1e-6, 'Canonne–Kamath–Steinke (default)');
  const toZcdp = okResult(calc.compute({ op: 'convert', guarantee: pure(1), to: 'zcdp' }));
  assertClose(toZcdp.guarantee.rho, 0.5, 1e-15, 'ε²/2');
});

test('errors: unknown method, empty items, Gaussian items where no closed form exists', () => {
  assertError(calc.compute({ op: 'compose', method: 'magic', items: [{ guarantee: pure(1), count: 1 }] }), 'method');
  assertError(calc.compute({ op: 'compose', method: 'basic', items: [] }), 'items');
  assertError(calc.compute({ op: 'compose', method: 'basic', items: 'x' }), 'items');
  assertError(
    calc.compute({ op: 'compose', method: 'basic', items: [{ guarantee: pure(1), count: 1.5 }] }),
    'items.0.count',
  );
  assertError(
    calc.compute({
      op: 'compose',
      method: 'basic',
      items: [
        { guarantee: pure(1), count: 1 },
        { guarantee: pure(-1), count: 1 },
      ],
    }),
    'items.1.guarantee.epsilon',
  );
  const gaussian = calc.compute({
    op: 'compose',
    method: 'basic',
    items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 1 }],
  });
  assert.equal(gaussian.ok, false);
  assert.equal(gaussian.error.field, 'items.0.mechanism');
});
