// The discrete and selection mechanisms and the request relation through the built JS API: every op
// that takes a mechanism, on the worked example of a statistics office's year. Exact references:
// tests/reference/discrete_mechanisms_reference.py (mpmath, 50 digits); dp_accounting 0.6.0 from
// source: tests/reference/dp_accounting_discrete.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

const discreteGaussian = { type: 'discrete_gaussian', sigma: 5 };
const selection = { type: 'permute_and_flip', epsilon: 0.5 };
const polls = { type: 'randomized_response', noise_parameter: 0.5, num_buckets: 2 };

// ε_upper ≥ exact ≥ ε_lower, the upper within 0.5% (the default accuracy).
function assertBracket(result, exact, label) {
  assert.ok(result.epsilon_lower <= exact * (1 + 1e-12), `${label}: lower ${result.epsilon_lower} ≤ ${exact}`);
  assert.ok(result.epsilon_upper >= exact * (1 - 1e-12), `${label}: upper ${result.epsilon_upper} ≥ ${exact}`);
  assert.ok(result.epsilon_upper <= exact * 1.005, `${label}: upper ${result.epsilon_upper} within 0.5%`);
}

const pld = (mechanism, count, delta, relation) =>
  okResult(calc.compute({ op: 'compose', method: 'pld', delta, relation, items: [{ mechanism, count }] }));

test('12 monthly discrete Gaussian tables (σ = 5): exact lattice convolution 2.8755878488020699', () => {
  assertBracket(pld(discreteGaussian, 12, 1e-5), 2.8755878488020699, 'discrete Gaussian');
  const zcdp = okResult(
    calc.compute({ op: 'compose', method: 'zcdp', delta: 1e-5, items: [{ mechanism: discreteGaussian, count: 12 }] }),
  );
  assert.ok(Math.abs(zcdp.guarantee.rho - 0.24) <= 0.24 * 1e-14); // 12 · 1/(2 · 25), Canonne, Kamath, Steinke 2020
});

test('365 daily randomized-response polls (p = 0.5, 2 buckets) under substitution: 273.42007426646887', () => {
  const result = pld(polls, 365, 1e-5, 'substitute');
  assertBracket(result, 273.42007426646887, 'randomized response');
  // dp_accounting (events composed one at a time): 273.44771942480162.
  assert.ok(Math.abs(result.epsilon_upper / 273.44771942480162 - 1) < 5e-3);
  assertError(
    calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: polls, count: 3 }] }),
    'items.0.mechanism.type',
  );
  assertError(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      relation: 'add_remove',
      items: [{ mechanism: polls, count: 3 }],
    }),
    'relation',
  );
});

test('20 permute-and-flip selections at ε = 0.5: the ε-DP pair, 9.8594110241156159', () => {
  assertBracket(pld(selection, 20, 1e-5), 9.8594110241156159, 'permute-and-flip');
  // Above the exact two-candidate instance (8.5036717999964822) and dp_accounting's Laplace-pair value (9.1055436682584858).
  assert.ok(pld(selection, 20, 1e-5).epsilon_upper > 9.1055436682584858);
});

test('a DP-FTRL epoch of 1000 steps at noise multiplier 1 is the Gaussian of μ = √10: 17.856586830107631', () => {
  const tree = { type: 'tree_aggregation', noise_multiplier: 1, steps: 1000 };
  const result = pld(tree, 1, 1e-5);
  assertBracket(result, 17.856586830107631, 'tree aggregation');
  assert.ok(result.epsilon_upper < 19.053597531631389); // dp_accounting's RDP bound
});

test('heterogeneous releases compose in one request, and each op takes the new mechanisms', () => {
  const year = okResult(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: [
        { mechanism: discreteGaussian, count: 12 },
        { mechanism: selection, count: 1 },
        {
          mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1 } },
          count: 1000,
        },
      ],
    }),
  );
  assert.ok(year.epsilon_upper > 2.8755878488020699);
  const profile = okResult(
    calc.compute({
      op: 'profile',
      relation: 'substitute',
      epsilons: [1, 100, 300],
      items: [{ mechanism: polls, count: 365 }],
    }),
  );
  assert.ok(profile.delta_upper[2] < 1e-5); // ε = 300 is above the exact 273.42 at δ = 1e-5
  assert.ok(profile.delta_upper[1] > 1e-5);
  const group = okResult(calc.compute({ op: 'group', k: 3, delta: 1e-5, mechanism: discreteGaussian }));
  // Its exact pair at kΔ = 3: 2.4436398844088671 (discrete_mechanisms_reference.py), below the
  // zCDP route (ρ = 9/50 converted).
  assert.ok(group.epsilon_lower <= 2.4436398844088671 && group.guarantee.epsilon >= 2.4436398844088671);
  assert.ok(group.guarantee.epsilon <= 2.4436398844088671 * 1.005);
  const calibrated = okResult(
    calc.compute({
      op: 'calibrate',
      mechanism: { type: 'discrete_laplace', sensitivity: 1 },
      unknown: 'scale',
      count: 10,
      target: { epsilon: 1, delta: 1e-6 },
    }),
  );
  assert.ok(pld({ type: 'discrete_laplace', scale: calibrated.scale }, 10, 1e-6).epsilon_upper <= 1);
  const databases = okResult(
    calc.compute({
      op: 'databases',
      method: 'basic',
      relation: 'substitute',
      databases: [{ mechanism: polls, queries: 2 }],
    }),
  );
  assert.ok(databases.guarantee.epsilon >= 2 * Math.log(3));
});
