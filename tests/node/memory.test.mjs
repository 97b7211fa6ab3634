// Memory: 10^4 mixed requests — closed forms valid and mutated, failing ones, numeric
// ones cancelled through onProgress, ones whose onProgress throws, and oversized ones refused before
// the copy — leave the wasm heap as they found it: the bytes in use return to the same figure after
// every batch, and the linear memory does not grow past the high-water mark of the first batch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCalculator } from './helpers.mjs';
import { createGenerator, supportedOps } from '../fuzz/generator.mjs';

const calc = await loadCalculator();
const ops = supportedOps(calc);
const numeric = {
  op: 'compose',
  method: 'pld',
  delta: 1e-5,
  items: [
    { mechanism: { type: 'poisson_subsampled', rate: 0.1, mechanism: { type: 'gaussian', sigma: 1 } }, count: 20 },
  ],
};

// One batch of 1000 requests; the same seed gives the same requests every time.
function runBatch() {
  const next = createGenerator(6, { ops, numericShare: 0 });
  const codes = {};
  for (let i = 0; i < 1000; ++i) {
    let response;
    if (i % 50 === 0) {
      let reports = 0;
      response = calc.compute(numeric, { onProgress: () => ++reports < 2 }); // cancelled at the second report
    } else if (i % 50 === 1) {
      response = calc.compute(numeric, {
        onProgress: () => {
          throw new Error('boom');
        },
      });
    } else if (i % 50 === 2) {
      response = calc.compute({ op: 'profile', items: numeric.items, epsilons: new Array(2e5).fill(1) });
    } else {
      response = calc.compute(next());
    }
    const code = response.ok ? 'ok' : response.error.code;
    codes[code] = (codes[code] ?? 0) + 1;
  }
  return codes;
}

test('10^4 mixed requests return the wasm heap to the same bytes in use and do not grow it past its high-water mark', () => {
  const codes = runBatch();
  assert.ok(codes.ok > 100 && codes.invalid_argument > 100 && codes.cancelled === 40, JSON.stringify(codes));
  const highWater = calc.memory();
  for (let batch = 1; batch < 10; ++batch) {
    runBatch();
    const now = calc.memory();
    assert.equal(now.inUseBytes, highWater.inUseBytes, `batch ${batch}: bytes in use`);
    assert.equal(now.heapBytes, highWater.heapBytes, `batch ${batch}: linear memory size`);
  }
});

// A large numeric answer frees its composed PLDs once it is written: no answer is kept for a later
// request (its trade-off comes with it, explain: true). Once about 31.5 MB stayed allocated after
// this request until the next numeric one. Measured from before the module's first DP-SGD request
// (a closed form and a small numeric one first fill the tables that live as long as the module): the
// first of each sampler may add a few such tables (40 bytes, measured), never a composition.
test('a large DP-SGD answer leaves no more memory in use than it found', async () => {
  const fresh = await loadCalculator();
  fresh.compute({ op: 'compose', method: 'basic', items: [{ guarantee: { type: 'pure', epsilon: 1 }, count: 2 }] });
  fresh.compute({ ...numeric, explain: true });
  const start = fresh.memory().inUseBytes;
  const dpsgd = {
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    steps: 1e4,
    noise_multiplier: 1,
    delta: 1e-5,
    group_size: 1,
    discretization: { relative_accuracy: 1e-5 },
  };
  const trainings = [
    dpsgd,
    { ...dpsgd, explain: true },
    { ...dpsgd, group_size: 8 },
    { ...dpsgd, sampling: 'balls_and_bins', sampling_rate: undefined, dataset_size: 10000, batch_size: 100 },
    { ...dpsgd, sampling: 'shuffle', sampling_rate: undefined, dataset_size: 10000, batch_size: 100 },
  ];
  for (const request of trainings) {
    assert.equal(fresh.compute(request).ok, true, JSON.stringify(request));
    assert.ok(
      fresh.memory().inUseBytes - start <= 1024,
      `${JSON.stringify(request)}: ${fresh.memory().inUseBytes - start} bytes kept`,
    );
  }
  const settled = fresh.memory().inUseBytes;
  for (const request of trainings) {
    assert.equal(fresh.compute(request).ok, true);
    assert.equal(fresh.memory().inUseBytes, settled, JSON.stringify(request));
  }
});
