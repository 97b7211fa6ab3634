// Solving for an unknown through the built JS API: ops 'dpsgd' (steps, epochs, sampling rate, batch
// size, group size), 'compose' (count) and 'group' (k). Every answer is checked by composing it back
// with the op's forward request (within the target) and one step beyond (not within it). Reference
// values: dp_accounting b5b0286 PLD (connect-the-dots, pessimistic, step 1e-4) bisected on the same
// integers, tests/reference/dpsgd_solve_reference.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();
const poisson = {
  op: 'dpsgd',
  sampling: 'poisson',
  sampling_rate: 0.01,
  group_size: 1,
  noise_multiplier: 1,
  delta: 1e-5,
};
const epsilonOf = (request) => okResult(calc.compute(request)).guarantee.epsilon;

/** The forward request with the unknown's field set to `value`. */
function forward(request, unknown, value) {
  const copy = structuredClone(request);
  delete copy.unknown;
  delete copy.target;
  copy[unknown] = value;
  return copy;
}

test('dpsgd: the most steps within ε = 3 compose back, one more does not, and match dp_accounting', () => {
  const request = { ...poisson, unknown: 'steps', target: { epsilon: 3 } };
  const result = okResult(calc.compute(request));
  const steps = result.steps;
  assert.ok(Number.isInteger(steps));
  assert.equal(result.unknown, 'steps');
  assert.equal(epsilonOf(forward(request, 'steps', steps)), result.guarantee.epsilon);
  assert.ok(result.guarantee.epsilon <= 3);
  assert.ok(epsilonOf(forward(request, 'steps', steps + 1)) > 3);
  assert.equal(result.beyond.steps, steps + 1);
  assert.ok(result.beyond.guarantee.epsilon > 3);
  // dp_accounting: 2666 steps (ε = 2.99986; 2667 steps: ε = 3.00045). Both are upper bounds on
  // grids of their own (ε moves by 2e-4 per step here): the answers agree within 0.5%.
  assert.ok(Math.abs(steps - 2666) <= 0.005 * 2666, `${steps}`);
});

test('dpsgd: the most whole epochs (Poisson: steps = epochs / q)', () => {
  const request = { ...poisson, unknown: 'epochs', target: { epsilon: 1 } };
  const result = okResult(calc.compute(request));
  assert.ok(Number.isInteger(result.epochs) && result.epochs >= 1);
  assert.equal(result.steps, result.epochs * 100);
  assert.ok(epsilonOf(forward(request, 'epochs', result.epochs)) <= 1);
  assert.ok(epsilonOf(forward(request, 'epochs', result.epochs + 1)) > 1);
});

test('dpsgd: the largest sampling rate is a short decimal that meets ε, the next one tried does not', () => {
  const request = { ...poisson, steps: 1000, unknown: 'sampling_rate', target: { epsilon: 2 } };
  delete request.sampling_rate;
  const result = okResult(calc.compute(request));
  const q = result.sampling_rate;
  assert.ok(q > 0 && q < 1);
  assert.ok(String(q).replace(/^0\.0*/, '').length <= 8, `${q} is short`);
  assert.ok(epsilonOf(forward(request, 'sampling_rate', q)) <= 2);
  assert.ok(result.beyond.sampling_rate / q - 1 <= 1e-4);
  assert.ok(epsilonOf(forward(request, 'sampling_rate', result.beyond.sampling_rate)) > 2);
});

test('dpsgd: the largest batch size for fixed batches', () => {
  const request = {
    op: 'dpsgd',
    sampling: 'fixed_batch',
    dataset_size: 60000,
    group_size: 1,
    noise_multiplier: 1.1,
    steps: 1000,
    delta: 1e-5,
    unknown: 'batch_size',
    target: { epsilon: 1 },
  };
  const result = okResult(calc.compute(request));
  assert.ok(Number.isInteger(result.batch_size));
  assert.ok(epsilonOf(forward(request, 'batch_size', result.batch_size)) <= 1);
  assert.ok(epsilonOf(forward(request, 'batch_size', result.batch_size + 1)) > 1);
});

test('dpsgd: the largest group within ε = 2 matches dp_accounting', () => {
  const request = { ...poisson, noise_multiplier: 2, steps: 1000, unknown: 'group_size', target: { epsilon: 2 } };
  delete request.group_size;
  const result = okResult(calc.compute(request));
  // dp_accounting: k = 2 (ε = 1.3326), k = 3 exceeds it (ε = 2.0923).
  assert.equal(result.group_size, 2);
  assert.ok(epsilonOf(forward(request, 'group_size', result.group_size)) <= 2);
  assert.ok(epsilonOf(forward(request, 'group_size', result.group_size + 1)) > 2);
});

test('dpsgd: the unknown field, both lengths, and a sampling that does not fit are refused', () => {
  const request = { ...poisson, unknown: 'steps', target: { epsilon: 3 } };
  assertError(calc.compute({ ...request, steps: 10 }), 'steps');
  assertError(calc.compute({ ...request, epochs: 1 }), 'epochs');
  assertError(calc.compute({ ...request, unknown: 'batch_size', steps: 10 }), 'unknown');
  assertError(calc.compute({ ...request, unknown: 'sampling_rate', epochs: 2 }), 'sampling_rate');
  assertError(calc.compute({ ...request, target: undefined }), 'target');
  assertError(calc.compute({ ...request, noise_multiplier: undefined }), 'noise_multiplier');
  assertError(calc.compute({ ...request, target: { epsilon: 0 } }), 'target.epsilon');
});

test('dpsgd: a target not even one step meets is refused on target.epsilon', () => {
  const response = calc.compute({ ...poisson, noise_multiplier: 0.5, unknown: 'steps', target: { epsilon: 1e-6 } });
  assertError(response, 'target.epsilon', 'numeric');
  assert.match(response.error.message, /smallest number of steps \(1\)/);
});

test('compose: the most releases of a Gaussian by PLD compose back within (ε, δ)', () => {
  const request = {
    op: 'compose',
    method: 'pld',
    items: [{ mechanism: { type: 'gaussian', sigma: 10 } }],
    unknown: 'count',
    target: { epsilon: 1, delta: 1e-6 },
  };
  const result = okResult(calc.compute(request));
  assert.equal(result.item, 0);
  const composed = (count) =>
    epsilonOf({
      op: 'compose',
      method: 'pld',
      delta: 1e-6,
      items: [{ mechanism: { type: 'gaussian', sigma: 10 }, count }],
    });
  assert.equal(composed(result.count), result.guarantee.epsilon);
  assert.ok(composed(result.count) <= 1);
  assert.ok(composed(result.count + 1) > 1);
});

test('compose: the most selections of an exponential mechanism by PLD start from the count zCDP and Rényi DP allow', () => {
  // 1e-6-bounded-range selections: far beyond what the pairs' composition can certify (3.06e10 of them
  // give the pairs [0, 1.0], a bracket wider than asked), zCDP of the mechanisms (Cesar & Rogers 2021;
  // Canonne, Kamath, Steinke 2020, Cor 13) caps the numeric answer, so the count it allows is the
  // answer: two evaluations (it, and one more), where galloping from 1 took 71 (27 s).
  const items = [{ mechanism: { type: 'exponential', epsilon: 1e-6, adaptive: false } }];
  const target = { epsilon: 1, delta: 1e-5 };
  const solve = (method) => okResult(calc.compute({ op: 'compose', method, unknown: 'count', target, items }));
  const pld = solve('pld');
  const cheaper = Math.max(solve('zcdp').count, solve('rdp').count);
  assert.equal(pld.count, cheaper);
  assert.equal(pld.evaluations, 2);
  const at = (count) =>
    okResult(calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ ...items[0], count }] }));
  const answer = at(pld.count);
  assert.equal(answer.capped_by, 'zcdp');
  assert.ok(answer.guarantee.epsilon <= 1);
  assert.ok(at(pld.count + 1).guarantee.epsilon > 1);
  // The forward answer at 3.06e10 selections: the pairs' bracket is wider than asked, and zCDP caps it.
  const wide = at(30599322189);
  assert.equal(wide.capped_by, 'zcdp');
  assert.ok(wide.guarantee.epsilon < 0.33);
});

test('compose: the item solved for is the one without a count; δ comes from the target', () => {
  const request = {
    op: 'compose',
    method: 'basic',
    items: [
      { guarantee: { type: 'approx', epsilon: 0.5, delta: 0 }, count: 2 },
      { guarantee: { type: 'pure', epsilon: 0.25 } },
    ],
    unknown: 'count',
    target: { epsilon: 4, delta: 0 },
  };
  const result = okResult(calc.compute(request));
  assert.equal(result.item, 1);
  assert.equal(result.count, 12); // (4 − 2 · 0.5) / 0.25, exact in binary
  assertError(calc.compute({ ...request, delta: 1e-6 }), 'delta');
  // A second item without a count: its count is the missing required field (the page marks its input).
  const twoUnknown = calc.compute({ ...request, items: [request.items[1], request.items[1]] });
  assertError(twoUnknown, 'items.1.count');
  assert.match(twoUnknown.error.message, /^items\.1\.count is required: .* items\.0 already does\.$/);
});

test('group: the largest k of an (ε, δ) guarantee, and unknown k named by its field', () => {
  const request = {
    op: 'group',
    guarantee: { type: 'approx', epsilon: 1, delta: 1e-6 },
    unknown: 'k',
    target: { epsilon: 10, delta: 0.01 },
  };
  const result = okResult(calc.compute(request));
  assert.equal(result.k, 9); // δ_9 = 4.7152e-3, δ_10 = 1.2818e-2 (Vadhan 2017, Lemma 2.2, mpmath)
  const at = okResult(calc.compute(forward(request, 'k', 9))).guarantee;
  const beyond = okResult(calc.compute(forward(request, 'k', 10))).guarantee;
  assert.ok(at.epsilon <= 10 && at.delta <= 0.01);
  assert.ok(beyond.delta > 0.01);
  assertError(calc.compute({ ...request, unknown: 'group_size' }), 'unknown');
  assertError(calc.compute({ ...request, k: 3 }), 'k');
});

test('group: every k meets a target of a zero-ε guarantee, up to the limit it names', () => {
  const result = okResult(
    calc.compute({ op: 'group', guarantee: { type: 'pure', epsilon: 0 }, unknown: 'k', target: { epsilon: 1 } }),
  );
  assert.equal(result.all_meet, true);
  assert.equal(result.k, 2 ** 53);
  assert.match(result.note, /up to the limit 2\^53/);
});
