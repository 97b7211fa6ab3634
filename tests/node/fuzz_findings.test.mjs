// Regression tests for what the seeded fuzz (tests/fuzz/, `npm run fuzz`) found in the ops it
// draws since issue 9: each request is the fuzz's own (shortened where that keeps the fault), and
// the comment names the seed that found it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator } from './helpers.mjs';

const calc = await loadCalculator();

// Seed 1 (closed-form lane): without `orders` the error named `orders`, a field not in the request.
test('rdp: a σ too small for any order is an error on that σ', () => {
  assertError(calc.compute({ op: 'rdp', items: [{ mechanism: { type: 'gaussian', sigma: 1e-300 }, count: 1 }] }),
    'items.0.mechanism.sigma');
  const nested = calc.compute({ op: 'compose', method: 'rdp', delta: 1e-5, items: [
    { mechanism: { type: 'gaussian', sigma: 27.4, sensitivity: 5.3 }, count: 5420 },
    { mechanism: { type: 'poisson_subsampled', rate: 1, mechanism: { type: 'gaussian', sigma: 1e-310 } }, count: 1e12 }] });
  assertError(nested, 'items.1.mechanism.mechanism.sigma');
  assert.match(nested.error.message, /too small/);
});

// Seed 1 (closed-form lane): an overflowing result came back as a `numeric` error on field ''.
test('databases: a result that would overflow names the class behind it', () => {
  assertError(calc.compute({ op: 'databases', method: 'basic', databases: [
    { guarantee: { type: 'pure', epsilon: 0.00056 }, count: 53 },
    { guarantee: { type: 'approx', epsilon: 1.7976931348623157e308, delta: 1e-300 }, count: 1, queries: 5 }],
  neighbours: 'bounded' }), 'databases.1.guarantee.epsilon');
  assertError(calc.compute({ op: 'databases', method: 'zcdp', delta: 0.9999999999999999,
    databases: [{ mechanism: { type: 'laplace', scale: 1e-300 }, count: 5329 }] }), 'databases.0.mechanism.scale');
  assertError(calc.compute({ op: 'databases', method: 'zcdp', databases: [
    { guarantee: { type: 'zcdp', rho: 1.7976931348623157e308 }, count: 643 },
    { mechanism: { type: 'gaussian', sigma: 2.35 }, count: 1, queries: 2 }],
  constraint: { type: 'families', families: [[1]] }, neighbours: 'bounded' }), 'databases.0.guarantee.rho');
});
