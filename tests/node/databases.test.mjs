// op 'databases' through the built JS API. Expected values: Kairouz, Oh, Viswanath 2015,
// Thm 3.3 (optimal composition) and Corollary 7 of Hartmann, Bindschaedler, West 2022, ln(((1 + e^{ε0})^n − 1)/(2^n − 1)),
// both evaluated with mpmath at 50 digits (/usr/bin/python3, mpmath 1.x; values noted below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const hospitalGuarantee = { type: 'approx', epsilon: 0.05, delta: 1e-9 };
const hospitals = (extra) => ({
  op: 'databases',
  method: 'optimal',
  delta: 1e-5,
  databases: [{ guarantee: hospitalGuarantee, count: 1000 }],
  constraint: { type: 'at_most', m: 365 },
  ...extra,
});

test('hospitals: unbounded = optimal composition of 365, bounded = of 730, classic = of 1000', () => {
  const unbounded = okResult(calc.compute(hospitals({ neighbours: 'unbounded' })));
  const bounded = okResult(calc.compute(hospitals({ neighbours: 'bounded' })));
  const compose = (count) =>
    okResult(
      calc.compute({ op: 'compose', method: 'optimal', delta: 1e-5, items: [{ guarantee: hospitalGuarantee, count }] }),
    ).guarantee.epsilon;
  assert.equal(unbounded.guarantee.epsilon, compose(365));
  assert.equal(bounded.guarantee.epsilon, compose(730));
  assert.equal(unbounded.classic.guarantee.epsilon, compose(1000));
  // mpmath: 4.1384581547536021, 6.2319778877081557, 7.5334288995699205
  assertClose(unbounded.guarantee.epsilon, 4.138458154753602, 1e-9, 'unbounded');
  assertClose(bounded.guarantee.epsilon, 6.2319778877081555, 1e-9, 'bounded');
  assertClose(unbounded.classic.guarantee.epsilon, 7.533428899569921, 1e-9, 'classic');
  assert.deepEqual([unbounded.footprint.databases, unbounded.footprint.releases], [365, 365]);
  assert.deepEqual([bounded.footprint.databases, bounded.footprint.releases], [730, 730]);
  assert.equal(unbounded.neighbours, undefined);
  assert.match(unbounded.citation, /Kairouz, Oh, Viswanath 2015, Thm 3.3/);
});

test('every composition method answers the hospital example; constrained <= classic, bounded >= unbounded', () => {
  const pure = { type: 'pure', epsilon: 0.05 };
  for (const [method, extra] of [
    ['basic', {}],
    ['advanced', { delta: 1e-5 }],
    ['advanced', { delta: 1e-5, variant: 'dwork_rothblum_vadhan' }],
    ['optimal', { delta: 1e-5 }],
    ['zcdp', { delta: 1e-5 }],
    ['pld', { delta: 1e-5 }],
  ]) {
    const request = {
      op: 'databases',
      method,
      ...extra,
      databases: [{ guarantee: pure, count: 1000 }],
      constraint: { type: 'at_most', m: 365 },
    };
    const unbounded = okResult(calc.compute(request));
    const bounded = okResult(calc.compute({ ...request, neighbours: 'bounded' }));
    assert.ok(unbounded.guarantee.epsilon <= unbounded.classic.guarantee.epsilon, method);
    assert.ok(bounded.guarantee.epsilon >= unbounded.guarantee.epsilon, method);
    assert.ok(unbounded.parallel.guarantee.epsilon >= unbounded.guarantee.epsilon - 1e-12, method);
    assert.ok(unbounded.exact, method);
  }
});

test('monotone in m, and m >= the number of databases is no constraint', () => {
  let previous = 0;
  for (const m of [1, 10, 100, 365, 999, 1000, 5000]) {
    const result = okResult(calc.compute(hospitals({ constraint: { type: 'at_most', m } })));
    assert.ok(result.guarantee.epsilon >= previous, `m = ${m}`);
    previous = result.guarantee.epsilon;
    if (m >= 1000) assert.equal(result.guarantee.epsilon, result.classic.guarantee.epsilon);
  }
});

test('subsidiaries (exactly one) and software columns (families)', () => {
  const subsidiaries = {
    op: 'databases',
    method: 'basic',
    databases: [{ guarantee: { type: 'pure', epsilon: 0.5 }, count: 12, queries: 4 }],
    constraint: { type: 'exactly_one' },
  };
  assertClose(okResult(calc.compute(subsidiaries)).guarantee.epsilon, 2, 1e-14, 'worst single subsidiary: 4 · 0.5');
  assertClose(
    okResult(calc.compute({ ...subsidiaries, neighbours: 'bounded' })).guarantee.epsilon,
    4,
    1e-14,
    'two subsidiaries',
  );
  // Columns: common (10), ads-only (5), premium-only (8), each (0.1)-DP once; free users: common ∪ ads.
  const columns = {
    op: 'databases',
    method: 'basic',
    databases: [
      { guarantee: { type: 'pure', epsilon: 0.1 }, count: 10 },
      { guarantee: { type: 'pure', epsilon: 0.1 }, count: 5 },
      { guarantee: { type: 'pure', epsilon: 0.1 }, count: 8 },
    ],
    constraint: {
      type: 'families',
      families: [
        [0, 1],
        [0, 2],
      ],
    },
  };
  const unbounded = okResult(calc.compute(columns));
  assertClose(unbounded.guarantee.epsilon, 1.8, 1e-14, 'common ∪ premium: 18 columns');
  assert.deepEqual(unbounded.footprint.classes, [10, 0, 8]);
  assertClose(
    okResult(calc.compute({ ...columns, neighbours: 'bounded' })).guarantee.epsilon,
    2.3,
    1e-14,
    'all 23 columns',
  );
});

test('uninformative prior: Corollary 7 with basic, never above it with optimal or PLD, never above the worst case', () => {
  const request = (method, count, extra = {}) => ({
    op: 'databases',
    method,
    ...extra,
    adversary: 'uninformative',
    databases: [{ guarantee: { type: 'pure', epsilon: 0.05 }, count }],
  });
  // mpmath: ln(((1 + e^0.05)^1000 − 1)/(2^1000 − 1)) = 25.312467453340985
  const basic = okResult(calc.compute(request('basic', 1000)));
  assertClose(basic.guarantee.epsilon, 25.312467453340986, 1e-11, 'Cor. 7');
  assert.equal(basic.guarantee.type, 'pure');
  for (const method of ['optimal', 'pld', 'advanced', 'zcdp']) {
    const result = okResult(calc.compute(request(method, 1000, { delta: 1e-6 })));
    assert.ok(result.guarantee.epsilon <= basic.guarantee.epsilon, method);
    assert.ok(result.guarantee.epsilon <= result.classic.guarantee.epsilon, method);
  }
});

test('uninformative prior with a million databases (log space) and the factor 2 as ε0 → 0', () => {
  const result = okResult(
    calc.compute({
      op: 'databases',
      method: 'basic',
      adversary: 'uninformative',
      databases: [{ guarantee: { type: 'pure', epsilon: 1e-3 }, count: 1e6 }],
    }),
  );
  assertClose(result.guarantee.epsilon, 500.12499999479166, 1e-11, 'n = 1e6');
  const tiny = okResult(
    calc.compute({
      op: 'databases',
      method: 'basic',
      adversary: 'uninformative',
      databases: [{ guarantee: { type: 'pure', epsilon: 1e-6 }, count: 50 }],
    }),
  );
  // n ε0 / ε = 1.9999995 at n = 50, ε0 = 1e-6 (mpmath)
  assertClose(50e-6 / tiny.guarantee.epsilon, 1.9999995, 1e-9, 'factor');
});

test('errors name the exact dotted field', () => {
  const base = {
    op: 'databases',
    method: 'basic',
    databases: [{ guarantee: { type: 'pure', epsilon: 0.1 }, count: 3 }],
  };
  assertError(calc.compute({ ...base, constraint: { type: 'at_most', m: 0 } }), 'constraint.m');
  assertError(calc.compute({ ...base, constraint: { type: 'at_most', m: 1.5 } }), 'constraint.m');
  assertError(calc.compute({ ...base, constraint: { type: 'families', families: [] } }), 'constraint.families');
  assertError(
    calc.compute({ ...base, constraint: { type: 'families', families: [[0], [1]] } }),
    'constraint.families.1.0',
  );
  assertError(
    calc.compute({ ...base, constraint: { type: 'families', families: [[0], []] } }),
    'constraint.families.1',
  );
  assertError(calc.compute({ ...base, constraint: { type: 'exactly_one' }, adversary: 'uninformative' }), 'adversary');
  assertError(
    calc.compute({
      ...base,
      databases: [base.databases[0], base.databases[0], { guarantee: { type: 'pure', epsilon: 1 }, count: 0 }],
    }),
    'databases.2.count',
  );
  assertError(
    calc.compute({ ...base, databases: [{ guarantee: { type: 'pure', epsilon: 0.1 }, queries: -1 }] }),
    'databases.0.queries',
  );
  assertError(
    calc.compute({ ...base, databases: [{ guarantee: { type: 'approx', epsilon: 0.1, delta: 2 } }] }),
    'databases.0.guarantee.delta',
  );
  assertError(
    calc.compute({ ...base, databases: [{ mechanism: { type: 'gaussian', sigma: -1 } }] }),
    'databases.0.mechanism.sigma',
  );
  assertError(calc.compute(hospitals({ delta: 1e-7 })), 'delta');
  assertError(calc.compute({ ...base, method: 'pld' }), 'delta');
  assertError(
    calc.compute({ ...base, databases: [{ mechanism: { type: 'gaussian', sigma: 2 } }] }),
    'databases.0.mechanism',
    'unsupported',
  );
});
