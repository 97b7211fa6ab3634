// Regression tests for what the seeded fuzz (tests/fuzz/, `npm run fuzz`) found in the ops it
// draws of the fuzz: each request is the fuzz's own (shortened where that keeps the fault), and
// the comment names the seed that found it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, loadCalculator } from './helpers.mjs';

const calc = await loadCalculator();

// Seed 1 (closed-form lane): without `orders` the error named `orders`, a field not in the request.
test('rdp: a σ too small for any order is an error on that σ', () => {
  assertError(
    calc.compute({ op: 'rdp', items: [{ mechanism: { type: 'gaussian', sigma: 1e-300 }, count: 1 }] }),
    'items.0.mechanism.sigma',
  );
  const nested = calc.compute({
    op: 'compose',
    method: 'rdp',
    delta: 1e-5,
    items: [
      { mechanism: { type: 'gaussian', sigma: 27.4, sensitivity: 5.3 }, count: 5420 },
      {
        mechanism: { type: 'poisson_subsampled', rate: 1, mechanism: { type: 'gaussian', sigma: 1e-310 } },
        count: 1e12,
      },
    ],
  });
  assertError(nested, 'items.1.mechanism.mechanism.sigma');
  assert.match(nested.error.message, /too small/);
});

// Seed 1 (closed-form lane): an overflowing result came back as a `numeric` error on field ''.
test('databases: a result that would overflow names the class behind it', () => {
  assertError(
    calc.compute({
      op: 'databases',
      method: 'basic',
      databases: [
        { guarantee: { type: 'pure', epsilon: 0.00056 }, count: 53 },
        { guarantee: { type: 'approx', epsilon: 1.7976931348623157e308, delta: 1e-300 }, count: 1, queries: 5 },
      ],
      neighbours: 'bounded',
    }),
    'databases.1.guarantee.epsilon',
  );
  assertError(
    calc.compute({
      op: 'databases',
      method: 'zcdp',
      delta: 0.9999999999999999,
      databases: [{ mechanism: { type: 'laplace', scale: 1e-300 }, count: 5329 }],
    }),
    'databases.0.mechanism.scale',
  );
  assertError(
    calc.compute({
      op: 'databases',
      method: 'zcdp',
      databases: [
        { guarantee: { type: 'zcdp', rho: 1.7976931348623157e308 }, count: 643 },
        { mechanism: { type: 'gaussian', sigma: 2.35 }, count: 1, queries: 2 },
      ],
      constraint: { type: 'families', families: [[1]] },
      neighbours: 'bounded',
    }),
    'databases.0.guarantee.rho',
  );
});

// Seed 2 (numeric lane): the PLD engine's errors named its own items ("databases.2.mechanism.sigma"
// for a class given as a pure guarantee); merged Gaussians whose Σ count·(Δ/σ)² overflows became
// "σ must be greater than 0 (got 0)".
test('databases pld: errors land on the class and release field of the request', () => {
  const classes = [
    { mechanism: { type: 'gaussian', sigma: 0.1419, sensitivity: 2.85 }, count: 64, queries: 3 },
    { mechanism: { type: 'gaussian', sigma: 43.03, sensitivity: 1e300 }, count: 430, queries: 1000 },
    { guarantee: { type: 'pure', epsilon: 0.0096 }, count: 1, queries: 10 },
  ];
  const merged = calc.compute({ op: 'databases', method: 'pld', delta: 3.4e-4, databases: classes });
  assertError(merged, 'databases.1.mechanism.sigma');
  assert.match(merged.error.message, /too small/);
  const uninformative = calc.compute({
    op: 'databases',
    method: 'pld',
    delta: 3.4e-4,
    adversary: 'uninformative',
    databases: classes,
  });
  assertError(uninformative, 'databases.1.mechanism.sigma');
  assertError(
    calc.compute({
      op: 'databases',
      method: 'pld',
      delta: 0.5,
      databases: [
        { guarantee: { type: 'pure', epsilon: 0.00037 }, count: 8 },
        { guarantee: { type: 'pure', epsilon: 1.7976931348623157e308 }, count: 1000 },
      ],
      constraint: { type: 'at_most', m: 1e6 },
      neighbours: 'bounded',
    }),
    'databases.1.guarantee.epsilon',
    'invalid_argument',
  );
});

// Seed 2 (numeric lane): calibrate's PLD errors named items.0.mechanism.sigma and '' (the noise is
// the unknown; the target asked for it).
test('calibrate pld: noise the accountant cannot evaluate is an error on target.epsilon', () => {
  const narrow = calc.compute({
    op: 'calibrate',
    mechanism: { type: 'poisson_subsampled', rate: 1e-200, mechanism: { type: 'gaussian' } },
    unknown: 'sigma',
    target: { epsilon: 0.0516, delta: 2.8e-6 },
  });
  assertError(narrow, 'target.epsilon', 'numeric');
  const wide = calc.compute({
    op: 'calibrate',
    mechanism: { type: 'gaussian', sensitivity: 1e300 },
    unknown: 'noise_multiplier',
    method: 'pld',
    target: { epsilon: 1.6, delta: 7.9e-4 },
  });
  assertError(wide, 'target.epsilon', 'numeric');
});

// Seed 2 (numeric lane): with relation 'substitute' the grid-limit explanation called std::get on
// the two-mixture pair, which aborted the module ("ran out of memory ... please report it").
test('dpsgd substitute: a grid beyond the limit is an error on noise_multiplier, the module keeps running', () => {
  const response = calc.compute({
    op: 'dpsgd',
    group_size: 1000,
    delta: 3e-6,
    sampling: 'poisson',
    sampling_rate: 0.0665,
    steps: 62,
    relation: 'substitute',
    noise_multiplier: 1,
  });
  assertError(response, 'noise_multiplier', 'numeric');
  // In the request's words: the engine's "sigma" is this request's noise_multiplier.
  assert.doesNotMatch(response.error.message, /out of memory|please report|\bsigma\b/);
});

// Seed 2 (numeric lane): "(got NaN)" without saying what NaN means.
test('dpsgd and groupwise: NaN is quoted as not a number', () => {
  const size = calc.compute({
    op: 'dpsgd',
    group_size: NaN,
    sampling: 'poisson',
    sampling_rate: 0.011,
    steps: 454,
    noise_multiplier: 0.88,
    delta: 1e-5,
  });
  assertError(size, 'group_size');
  assert.match(size.error.message, /NaN, which is not a number/);
  const epochs = calc.compute({
    op: 'dpsgd',
    group_size: 1,
    sampling: 'poisson',
    sampling_rate: 0.01,
    epochs: NaN,
    noise_multiplier: 1,
    delta: 1e-5,
  });
  assertError(epochs, 'epochs');
  assert.match(epochs.error.message, /not a number/);
});

// Seed 2 (numeric lane): sigma = 1e300 overflowed sd(Y) (an error on ''), and a request with
// neither rho nor sigma named `rho` without saying it is required.
test('groupwise: overflow names the noise field; a missing noise is required', () => {
  const huge = calc.compute({
    op: 'groupwise_simulate',
    sigma: 1e300,
    relative_error: 0.026,
    count: 1321,
    samples: 100,
  });
  assertError(huge, 'sigma');
  const missing = calc.compute({ op: 'groupwise_simulate', relative_error: 0.6, count: 2369, samples: 10 });
  assertError(missing, 'rho');
  assert.match(missing.error.message, /required/);
});

// Seed 3 (numeric lane): sampling_rate = 5e-324 left no weight on J >= 1; calibration then failed
// on noise_multiplier, which the request (it had a target) did not have.
test('dpsgd: a sampling rate too small to carry is an error on sampling_rate', () => {
  assertError(
    calc.compute({
      op: 'dpsgd',
      group_size: 100000,
      delta: 0.999999,
      sampling: 'poisson',
      sampling_rate: 5e-324,
      steps: 139,
      target: { epsilon: 3.79 },
    }),
    'sampling_rate',
  );
});

// Seed 1 (closed-form lane): an order that is NaN was quoted as "(got NaN)" without saying what that means.
test('rdp: a NaN order is quoted as not a number', () => {
  const response = calc.compute({
    op: 'rdp',
    orders: [NaN, 20],
    items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 9 }],
  });
  assertError(response, 'orders.0');
  assert.match(response.error.message, /not a number/);
});

// Seeds 2 and 3 (numeric lane): relative_error = 5e-324 ran the quadrature for 30 s without progress
// (groupwise_privacy) and halved σ towards 0 (groupwise_plan), and another request reported
// "failed at y = NaN".
test(
  'groupwise_privacy and groupwise_plan: a relative error below the quadrature limit is refused',
  { timeout: 20000 },
  () => {
    const privacy = calc.compute({
      op: 'groupwise_privacy',
      sigma: 1e6,
      relative_error: 5e-324,
      counts: [8, 2616],
      delta: 6.4e-12,
    });
    assertError(privacy, 'relative_error');
    assert.match(privacy.error.message, /at least 1e-06/);
    assertError(
      calc.compute({ op: 'groupwise_privacy', rho: 0.126, relative_error: 5e-324, counts: [481], orders: [1.01] }),
      'relative_error',
    );
    assertError(calc.compute({ op: 'groupwise_plan', relative_error: 1e-9, count: 1000 }), 'relative_error');
  },
);

// Seed 3 (numeric lane): optimal composition under the uninformative prior named
// databases.1.queries for a class that left queries at its default.
test('databases optimal uninformative: different query counts name a field of the request', () => {
  const guarantee = { type: 'pure', epsilon: 0.0002 };
  assertError(
    calc.compute({
      op: 'databases',
      method: 'optimal',
      delta: 1e-6,
      adversary: 'uninformative',
      databases: [
        { guarantee, count: 371, queries: 8 },
        { guarantee, count: 1 },
      ],
    }),
    'databases.1',
    'unsupported',
  );
});

// Seed 8 (closed-form lane): constraint.m = NaN was quoted as "got NaN" without saying what it means.
test('databases: a NaN constraint.m is quoted as not a number', () => {
  const response = calc.compute({
    op: 'databases',
    method: 'basic',
    databases: [{ guarantee: { type: 'pure', epsilon: 0.1 }, count: 3 }],
    constraint: { type: 'at_most', m: NaN },
  });
  assertError(response, 'constraint.m');
  assert.match(response.error.message, /not a number/);
});

// Seed 20261123 (10^6 requests, numeric lane): calibrating a group of the whole dataset under
// substitution, the rule of thumb's σ (k × the σ for k = 1) was too small for the engine, and the
// calibration failed with an error on noise_multiplier, a field the request does not have.
test('dpsgd calibration: a rule of thumb too small to represent is unavailable, the calibration answers', () => {
  const response = calc.compute({
    op: 'dpsgd',
    group_size: 123,
    delta: 1.0512147278942834e-9,
    sampling: 'fixed_batch',
    dataset_size: 123,
    batch_size: 77,
    steps: 1,
    relation: 'substitute',
    target: { epsilon: 700 },
  });
  assert.ok(response.ok, JSON.stringify(response.error));
  assert.ok(response.result.guarantee.epsilon <= 700 && response.result.noise_multiplier > 0);
  assert.equal(response.result.rule_of_thumb.available, false);
  assert.match(response.result.rule_of_thumb.note, /too little noise for this group/);
});

// Seed 20261123 (10^6 requests): 1000 identical classes in 64 families with bounded neighbours are
// 2080 footprints; optimal composition composed each (up to 5.6 s). The most releases is the worst.
test('databases optimal with families: only the footprint with the most releases is composed', () => {
  const classes = Array.from({ length: 1000 }, (_, i) => ({
    guarantee: { type: 'pure', epsilon: 0.005 },
    count: 1 + (i % 7),
    queries: 1 + (i % 3),
  }));
  const families = Array.from({ length: 64 }, (_, f) =>
    Array.from({ length: 150 }, (_, j) => (f * 37 + j * 13) % 1000),
  );
  const request = {
    op: 'databases',
    method: 'optimal',
    delta: 1e-6,
    neighbours: 'bounded',
    databases: classes,
    constraint: { type: 'families', families },
  };
  const optimal = calc.compute(request);
  assert.ok(optimal.ok, JSON.stringify(optimal.error));
  // Basic composition keeps composing every footprint: its worst footprint has the most releases too.
  const basic = calc.compute({ ...request, method: 'basic' });
  assert.deepEqual(optimal.result.footprint, basic.result.footprint);
  const single = calc.compute({
    op: 'compose',
    method: 'optimal',
    delta: 1e-6,
    items: [{ guarantee: { type: 'pure', epsilon: 0.005 }, count: optimal.result.footprint.releases }],
  });
  assert.equal(optimal.result.guarantee.epsilon, single.result.guarantee.epsilon);
});

// An independent hostile-input campaign (61,702 requests) found three requests that never finished.
// 1000 classes of one pure ε = 700 release each, uninformative prior, method 'pld': 34 s at
// progress 0 (the engine's pilot grids, one class at a time), then "ran out of memory" on field ''.
// Identical releases now reach the engine as one item, which it refuses at its grid limit.
test('databases pld uninformative: 1000 identical classes are refused at the grid limit, with progress', () => {
  const request = {
    op: 'databases',
    method: 'pld',
    delta: 1e-6,
    adversary: 'uninformative',
    databases: Array.from({ length: 1000 }, () => ({ guarantee: { type: 'pure', epsilon: 700 }, count: 1 })),
  };
  const fractions = [];
  const response = calc.compute(request, { onProgress: (fraction) => fractions.push(fraction) > 0 });
  assertError(response, 'databases.0', 'numeric');
  assert.match(response.error.message, /limit 2097152 points/);
  assert.match(response.error.message, /Use fewer compositions/);
  assert.ok(
    fractions.some((fraction) => fraction > 0),
    'progress moves before the answer',
  );
  assertError(calc.compute(request, { onProgress: () => false }), '', 'cancelled');
});

// A target ε beyond ln(largest double) ≈ 709.78: e^ε is no number, the guarantee bounds no event of
// probability above 1e-308, and any noise meets it. The calibration ran 25 s and then named
// relative_accuracy and items.0.count; the DP-SGD calibration did not return within 40 s.
test('calibrate and dpsgd: a target ε no noise can improve on is refused at once, naming the limit', () => {
  const calibrate = calc.compute({
    op: 'calibrate',
    mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sensitivity: 2 } },
    unknown: 'noise_multiplier',
    count: 1000,
    target: { epsilon: 3840704, delta: 0.00001 },
  });
  assertError(calibrate, 'target.epsilon');
  assert.match(calibrate.error.message, /at most 709\.78.*no least noise/);
  const dpsgd = calc.compute({
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    steps: 1000,
    group_size: 4,
    delta: 0.00001,
    target: { epsilon: 1e300 },
  });
  assertError(dpsgd, 'target.epsilon');
  assert.match(dpsgd.error.message, /at most 709\.78/);
});

// The DP-SGD calibration evaluated its noise multipliers without progress (one report per
// evaluation, seconds apart, and no cancel in between).
test('dpsgd calibration reports progress inside each evaluation and is cancelled there', () => {
  const request = {
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    steps: 1000,
    group_size: 4,
    delta: 0.00001,
    target: { epsilon: 700 },
  };
  const fractions = [];
  const cancelled = calc.compute(request, {
    onProgress: (fraction) => {
      fractions.push(fraction);
      return fractions.length < 20;
    },
  });
  assertError(cancelled, '', 'cancelled');
  // Each evaluation is 1/30 of the work: reports inside the first one lie strictly between 0 and 1/30.
  assert.ok(
    fractions.some((fraction) => fraction > 0 && fraction < 1 / 30),
    JSON.stringify(fractions),
  );
});

// An invalid weight is refused on that weight (its dotted path), in words that say what it must be.
test('gaussian_mixture: a weight outside [0, 1] is an error on that weight, saying what it must be', () => {
  const response = calc.compute({
    op: 'profile',
    epsilons: [0.1],
    items: [{ mechanism: { type: 'gaussian_mixture', sigma: 2, shifts: [1, 2], weights: [2, -1] }, count: 1 }],
  });
  assertError(response, 'items.0.mechanism.weights.0');
  assert.match(response.error.message, /^Each weight must be in \[0, 1\] \(got 2\)/);
});

// Seed 20261123 (closed-form lane): solving a group's size at noise 1e300, the first size past the
// answer had an ε beyond the double range, and the whole answer became a `numeric` error on field ''.
test('group: a size far past the target is said in words, and the answer stands', () => {
  const response = calc.compute({
    op: 'group',
    mechanism: { type: 'gaussian', sigma: 1e300, sensitivity: 1.6741290641885427 },
    unknown: 'k',
    target: { epsilon: 12.746438149587725, delta: 1e-300 },
  });
  assert.ok(response.ok, JSON.stringify(response.error));
  assert.ok(response.result.k >= 1);
  if (response.result.beyond?.error) assert.match(response.result.beyond.error.message, /overflows/);
});

// Seed 20261124 (numeric lane): balls-and-bins given epochs whose composition hits the grid limit
// named `steps`, a field the request did not have.
test('dpsgd: a limit met composing the epochs is an error on epochs', () => {
  assertError(
    calc.compute({
      op: 'dpsgd',
      group_size: 1,
      delta: 1e-300,
      sampling: 'balls_and_bins',
      dataset_size: 7400,
      batch_size: 1,
      epochs: 3.8371330683322538,
      noise_multiplier: 3.0098360261672834,
    }),
    'epochs',
    'numeric',
  );
});
