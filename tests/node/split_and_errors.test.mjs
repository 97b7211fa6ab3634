// op 'split' (round trips through op 'compose') and the error shapes every op shares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const target = { epsilon: 1, delta: 1e-5 };

const composeBack = {
  basic: (perItem, count) => ({
    op: 'compose',
    method: 'basic',
    items: [{ guarantee: { type: 'approx', ...perItem }, count }],
  }),
  advanced: (perItem, count, result, variant) => ({
    op: 'compose',
    method: 'advanced',
    variant,
    delta_slack: result.delta_slack,
    items: [{ guarantee: { type: 'approx', ...perItem }, count }],
  }),
  optimal: (perItem, count) => ({
    op: 'compose',
    method: 'optimal',
    delta: target.delta,
    items: [{ guarantee: { type: 'approx', ...perItem }, count }],
  }),
};

for (const [method, variant] of [
  ['basic'],
  ['advanced', 'dwork_rothblum_vadhan'],
  ['advanced', 'kairouz'],
  ['optimal'],
]) {
  test(`split ${method} ${variant ?? ''}: composing the answer back meets the target within 1%`, () => {
    for (const count of [1, 10, 1000]) {
      const result = okResult(calc.compute({ op: 'split', method, variant, target, count }));
      const back = okResult(calc.compute(composeBack[method](result.per_item, count, result, variant)));
      assert.ok(back.guarantee.epsilon <= target.epsilon, `${count}: ${back.guarantee.epsilon} exceeds the target`);
      assert.ok(
        back.guarantee.epsilon >= 0.99 * target.epsilon || (method === 'basic' && count === 1),
        `${count}: ${back.guarantee.epsilon} is more than 1% below the target`,
      );
      assert.ok(back.guarantee.delta <= target.delta, `${count}: δ ${back.guarantee.delta} exceeds the target`);
    }
  });
}

test('split zcdp gives per-item pure ε whose composition converts back under the target', () => {
  const result = okResult(calc.compute({ op: 'split', method: 'zcdp', target, count: 100 }));
  const back = okResult(
    calc.compute({
      op: 'compose',
      method: 'zcdp',
      delta: target.delta,
      items: [{ guarantee: { type: 'pure', epsilon: result.per_item.epsilon }, count: 100 }],
    }),
  );
  assert.ok(back.approx.epsilon <= target.epsilon && back.approx.epsilon >= 0.99 * target.epsilon);
});

test('compute never throws and names the offending field', () => {
  for (const request of [null, undefined, 'group', 42, [], {}]) {
    const response = calc.compute(request);
    assert.equal(response.ok, false, JSON.stringify(request));
    assert.equal(response.error.code, 'invalid_argument');
  }
  assertError(calc.compute({}), 'op');
  assertError(calc.compute({ op: 'frobnicate' }), 'op');
  assertError(calc.compute({ op: 'group', guarantee: { type: 'pure', epsilon: 1 } }), 'k');
  assertError(calc.compute({ op: 'group', k: 2, guarantee: { type: 'weird' } }), 'guarantee.type');
  assertError(
    calc.compute({ op: 'split', method: 'basic', target: { epsilon: 1, delta: 2 }, count: 3 }),
    'target.delta',
  );
  assertError(calc.compute({ op: 'split', method: 'basic', target: { epsilon: 1, delta: 0 }, count: -3 }), 'count');
  assertError(calc.compute({ op: 'convert', guarantee: { type: 'zcdp', rho: 1 }, to: 'approx', delta: 0 }), 'delta');
});
