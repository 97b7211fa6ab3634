// Two builds of the JS API side by side in Node, for a change to how the wasm is built (optimisation
// flags, a split of the module): the median time of every request of `npm run bench`'s closed-form
// and numeric tables, sampled alternately so that both builds share the machine's load alike, and
// whether the two answer every request identically (a build change must not change a result).
//   node tests/bench/compare_builds.mjs <build folder A> <build folder B> [milliseconds per request]
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';
import { benchmarkRequests, groupwiseRequests, numericRequests } from './requests.mjs';

const [first, second, budget = '400'] = process.argv.slice(2);
if (!second) throw new Error('usage: node tests/bench/compare_builds.mjs <build A> <build B> [ms per request]');
const builds = await Promise.all(
  [first, second].map(async (folder) => {
    const { createCalculator } = await import(pathToFileURL(path.resolve(folder, 'dpcalc.js')).href);
    return { folder, calculator: await createCalculator() };
  }),
);

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const shown = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);

/** Median milliseconds of `request` in each build, at least `minimum` samples each, alternating. */
function timeAlternately(request, minimum, milliseconds) {
  const samples = builds.map(() => []);
  const start = performance.now();
  while (samples[0].length < minimum || (performance.now() - start < milliseconds && samples[0].length < 20000)) {
    for (const [i, { calculator }] of builds.entries()) {
      const t0 = performance.now();
      calculator.compute(request);
      samples[i].push(performance.now() - t0);
    }
  }
  return samples.map(median);
}

console.log(`| request | ${first} | ${second} | ratio | same answer |`);
console.log('|---|---:|---:|---:|---|');
const rows = [
  ...benchmarkRequests.map((entry) => ({ ...entry, minimum: 5 })),
  ...numericRequests.map((entry) => ({ ...entry, minimum: 3 })),
  ...groupwiseRequests.map((entry) => ({ ...entry, minimum: 3 })),
];
let differing = 0;
for (const { name, request, minimum } of rows) {
  const answers = builds.map(({ calculator }) => calculator.compute(request));
  const same = isDeepStrictEqual(answers[0], answers[1]);
  if (!same) differing++;
  const [a, b] = timeAlternately(request, minimum, Number(budget));
  console.log(`| ${name} | ${shown(a)} | ${shown(b)} | ${(b / a).toFixed(2)} | ${same ? 'yes' : 'NO'} |`);
}
console.log(`\n${differing} of ${rows.length} requests answered differently.`);
