// npm run bench: median time per request through the JS API in Node (the DP-SGD samplers with
// dp_accounting's truncated Poisson beside them: tests/bench/samplers_bench.mjs), the size of what the page
// downloads, and the page's cold load in headless Chromium (time from navigation to the first result,
// bytes transferred; median of 7 locally, median of 3 over Chromium's "Fast 3G" profile). Builds
// dist/ first. Prints Markdown tables.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDependencies } from './install.mjs';
import { buildDist } from './build.mjs';
import { execFileSync } from 'node:child_process';
import {
  benchmarkRequests,
  groupwiseRequests,
  numericRequests,
  solveRequests,
  tradeoffPairs,
} from '../tests/bench/requests.mjs';
import { buildNative, buildWasmBench } from './build.mjs';
import { filesUnder } from './compress.mjs';
import { coldLoadTable, measureColdLoads } from '../tests/bench/cold_load.mjs';
import { firstAndMedian, printSamplersBench } from '../tests/bench/samplers_bench.mjs';

ensureDependencies();
const distDir = await buildDist();
const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
const calc = await createCalculator();

// Emscripten 3.1.6's Node ES-module output still refers to __dirname and require, and would fetch
// its wasm by URL: it gets both globals and the bytes. Runs main(), which prints its tables.
async function runWasmBench(modulePath) {
  globalThis.require = createRequire(modulePath);
  globalThis.__dirname = path.dirname(modulePath);
  const { default: createBench } = await import(pathToFileURL(modulePath).href);
  await createBench({ wasmBinary: readFileSync(modulePath.replace(/\.mjs$/, '.wasm')) });
}

function medianMicroseconds(request, minimumMilliseconds) {
  const first = calc.compute(request);
  if (!first.ok) throw new Error(`benchmark request failed: ${JSON.stringify(first.error)}`);
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || (performance.now() - start < minimumMilliseconds && samples.length < 20000)) {
    const t0 = performance.now();
    calc.compute(request);
    samples.push((performance.now() - t0) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[samples.length >> 1], runs: samples.length };
}

console.log('| request | median | runs | target |');
console.log('|---|---:|---:|---:|');
for (const { name, request, targetMicroseconds } of benchmarkRequests) {
  const { median, runs } = medianMicroseconds(request, targetMicroseconds > 10000 ? 3000 : 300);
  const shown = median >= 1000 ? `${(median / 1000).toFixed(2)} ms` : `${median.toFixed(1)} µs`;
  const target = targetMicroseconds >= 1000 ? `${targetMicroseconds / 1000} ms` : `${targetMicroseconds} µs`;
  console.log(`| ${name} | ${shown}${median > targetMicroseconds ? ' (over target)' : ''} | ${runs} | ${target} |`);
}

console.log('\n| wasm: PLD request | ε upper | ε lower | grid | first run | median of 3 after | target |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const { name, request, targetMilliseconds } of numericRequests) {
  const { response, first, median } = firstAndMedian(calc, request);
  // PLD ops report epsilon_upper and grid_size; the dpsgd op its guarantee; a group over a privacy
  // profile has no lower bound.
  const { epsilon_lower: lower, grid_size: grid = '' } = response.result;
  const upper = response.result.epsilon_upper ?? response.result.guarantee.epsilon;
  const target = targetMilliseconds ? `${targetMilliseconds} ms` : '';
  console.log(
    `| ${name} | ${upper.toPrecision(6)} | ${lower === undefined ? '—' : lower.toPrecision(6)} | ${grid} | ${first.toFixed(1)} ms | ${median.toFixed(1)} ms | ${target} |`,
  );
}
// The trade-off of a numeric answer reuses its composed PLDs: asked with explain: true, at most 10% on
// top of the answer (it composes nothing again). Op 'tradeoff' alone composes what the answer composes.
const medianOfRuns = (request, runs = 9) => {
  const times = [];
  for (let run = 0; run <= runs; run++) {
    const t0 = performance.now();
    const response = calc.compute(request);
    times.push(performance.now() - t0);
    if (!response.ok) throw new Error(`${JSON.stringify(request)}: ${JSON.stringify(response.error)}`);
  }
  return times.slice(1).sort((a, b) => a - b)[runs >> 1];
};
console.log(
  '\n| wasm: trade-off of a numeric answer (median of 9) | answer | answer with explain: true | overhead | op tradeoff alone | target |',
);
console.log('|---|---:|---:|---:|---:|---:|');
const percent = (overhead) => `${(100 * overhead).toFixed(0)}%${overhead > 0.1 ? ' (over target)' : ''}`;
for (const { name, answer } of tradeoffPairs) {
  const options = { fpr: [1e-3], prior: 0.5 };
  const alone = medianOfRuns(answer);
  const explained = medianOfRuns({ ...answer, explain: options });
  const separate = medianOfRuns({ op: 'tradeoff', of: answer, ...options });
  console.log(
    `| ${name} | ${alone.toFixed(1)} ms | ${explained.toFixed(1)} ms | ${percent(explained / alone - 1)} | ${separate.toFixed(1)} ms | ≤ 10% |`,
  );
}
// First run and median of the 3 after, against each request's target.
function timedTable(title, requests) {
  console.log(`\n| wasm: ${title} | first run | median of 3 after | target |`);
  console.log('|---|---:|---:|---:|');
  for (const { name, request, targetMilliseconds } of requests) {
    const times = [];
    for (let run = 0; run < 4; run++) {
      const t0 = performance.now();
      const response = calc.compute(request);
      times.push(performance.now() - t0);
      if (!response.ok) throw new Error(`${name}: ${JSON.stringify(response.error)}`);
    }
    const median = times.slice(1).sort((a, b) => a - b)[1];
    const target = targetMilliseconds ? `${targetMilliseconds} ms` : '';
    const over = targetMilliseconds && median > targetMilliseconds ? ' (over target)' : '';
    console.log(`| ${name} | ${times[0].toFixed(1)} ms | ${median.toFixed(1)} ms${over} | ${target} |`);
  }
}
timedTable('group-wise request', groupwiseRequests);
timedTable('solve for an unknown', solveRequests);
// The DP-SGD samplers on the worked example, dp_accounting's truncated Poisson beside them (skipped
// with a note without DP_ACCOUNTING_PATH).
printSamplersBench(calc);
console.log(`\nwasm peak memory (linear memory after the runs): ${(calc.memoryBytes?.() ?? NaN) / 2 ** 20} MB`);

buildNative();
const nativeDir = path.join(path.dirname(distDir), 'build', 'native');
execFileSync('cmake', ['--build', nativeDir, '--target', 'dpcalc_bench', 'dpcalc_tradeoff_bench'], { stdio: 'ignore' });
for (const bench of ['dpcalc_bench', 'dpcalc_tradeoff_bench']) {
  console.log('');
  execFileSync(path.join(nativeDir, bench), { stdio: 'inherit' });
}
// The same engine workloads compiled to WebAssembly, run in Node (group DP-SGD at a chosen accuracy
// included, which the JS API reaches only through the dpsgd op's discretization).
console.log('');
await runWasmBench(buildWasmBench());
// dpcalc against dp_accounting at equal accuracy, alternately in one run (skipped with a note when
// DP_ACCOUNTING_PATH or the Python packages are missing).
console.log('');
execFileSync(process.execPath, [path.join(path.dirname(distDir), 'scripts', 'bench_dp_accounting.mjs')], {
  stdio: 'inherit',
});

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('');
console.log(coldLoadTable(await measureColdLoads({ roots: [distDir], runs: 7 })));
console.log('');
console.log(coldLoadTable(await measureColdLoads({ roots: [distDir], runs: 3, network: 'fast-3g' })));
console.log('');
// A link to another section than the default one: its first answers need both parts of the wasm.
console.log(
  coldLoadTable(await measureColdLoads({ roots: [distDir], runs: 3, network: 'fast-3g', route: '#/convert' })),
);
console.log(
  `(load average while measuring: ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')})`,
);

console.log('\n| asset | raw | gzipped | brotli (as served: dist/*.br) |');
console.log('|---|---:|---:|---:|');
const wasmFiles = ['dpcalc.wasm', 'dpcalc-first.wasm', 'dpcalc-rest.wasm'];
const groups = {
  ...Object.fromEntries(wasmFiles.map((file) => [file, []])),
  'JS files (page, worker, element, API, vendor)': [],
  'CSS (incl. KaTeX)': [],
};
for (const file of filesUnder(distDir)) {
  if (file.endsWith('.wasm')) groups[path.basename(file)]?.push(file);
  else if (file.endsWith('.js')) groups['JS files (page, worker, element, API, vendor)'].push(file);
  else if (file.endsWith('.css')) groups['CSS (incl. KaTeX)'].push(file);
}
for (const [name, files] of Object.entries(groups)) {
  const bytes = files.map((file) => readFileSync(file));
  const raw = bytes.reduce((sum, b) => sum + b.length, 0);
  const gzipped = bytes.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0);
  const brotli = files.reduce(
    (sum, file, i) => sum + (existsSync(`${file}.br`) ? statSync(`${file}.br`).size : bytes[i].length),
    0,
  );
  console.log(`| ${name} | ${kb(raw)} | ${kb(gzipped)} | ${kb(brotli)} |`);
}
