// The split module the page loads (scripts/split-wasm.mjs): its two parts, linked, answer exactly as
// the whole module does, and the first part alone answers the page's first requests and says which
// requests need the rest (code 'not_loaded'), without breaking the requests after them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchmarkRequests, numericRequests } from '../bench/requests.mjs';
import { firstAnswerRequests } from '../../scripts/first-answers.mjs';
import { assertError } from './helpers.mjs';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
const compiled = async (file) => WebAssembly.compile(await readFile(path.join(distDir, file)));
const first = await compiled('dpcalc-first.wasm');
const rest = await compiled('dpcalc-rest.wasm');
const whole = await createCalculator();

// Every request `npm run bench` times: closed forms, trade-offs, PLD compositions, DP-SGD, databases,
// calibrations and group-wise estimates, each with its own code paths.
const requests = [...benchmarkRequests, ...numericRequests].map(({ request }) => request);

test('the two parts, linked, answer every benchmark request exactly as the whole module', async () => {
  const split = await createCalculator({ wasmModule: first, deferredModule: rest });
  assert.ok(requests.length >= 60);
  for (const request of requests) assert.deepEqual(split.compute(request), whole.compute(request));
  assert.deepEqual(split.schema(), whole.schema());
});

test('the first part alone answers the first requests, and a request that needs the rest with not_loaded', async () => {
  const firstOnly = await createCalculator({ wasmModule: first });
  assert.deepEqual(firstOnly.schema(), whole.schema());
  for (const request of firstAnswerRequests) assert.deepEqual(firstOnly.compute(request), whole.compute(request));
  // A numeric composition runs the PLD engine, which is in the rest.
  const numeric = {
    op: 'compose',
    method: 'pld',
    delta: 1e-5,
    items: [{ mechanism: { type: 'laplace', scale: 10 }, count: 10 }],
  };
  assertError(firstOnly.compute(numeric), '', 'not_loaded');
  // The module is replaced after the miss (it stopped mid-request); the next request is answered.
  await firstOnly.ready();
  assert.deepEqual(firstOnly.compute(firstAnswerRequests[0]), whole.compute(firstAnswerRequests[0]));
});
