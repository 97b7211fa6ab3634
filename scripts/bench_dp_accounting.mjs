// dpcalc against dp_accounting on the numeric workloads of tests/bench/requests.mjs
// (comparedWorkloads): dpcalc warm through the JS API (wasm in Node), dp_accounting 0.6.0 from
// source (PLD accountant, value_discretization_interval 1e-4) through
// tests/bench/dp_accounting_workloads.py, measured alternately in one run (each round times
// dp_accounting once, then every dpcalc accuracy once); medians of the rounds. A workload with
// `numpyPipeline` also times, in each round, one native numpy rfft + complex power + irfft at
// dp_accounting's grid (the floor of any FFT accountant there) and prints dpcalc's ratio to it.
//
// Equal accuracy. dp_accounting prints one number whose error is unknown to it; dpcalc prints a
// sound bracket [epsilon_lower, epsilon_upper]. dp_accounting's error is estimated against the
// tightest dpcalc bracket of the run (it contains the exact epsilon): at least its distance to that
// bracket, at most its distance to the far end. "Matched" is the coarsest relative accuracy tried
// whose bracket is no wider than that least error: dpcalc's whole uncertainty below dp_accounting's
// error. When dp_accounting's value lies inside the tightest bracket its error is too small to
// resolve, and the table says so.
//
//   DP_ACCOUNTING_PATH=/path/to/differential-privacy/python/dp_accounting node scripts/bench_dp_accounting.mjs
//     [--rounds 5] [--only dpsgd,laplace] [--dist dist]
// Needs Debian's python3 with numpy, scipy, absl and attr (DP_ACCOUNTING_PYTHON overrides the
// interpreter, default /usr/bin/python3); without them, or without DP_ACCOUNTING_PATH, it prints why
// and exits 0. Uses dist/ as built (npm run build); builds it when missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { comparedWorkloads } from '../tests/bench/requests.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : process.argv[at + 1];
};
const rounds = Number(option('rounds', 5));
const only = option('only', '')
  .split(',')
  .filter((key) => key);
const distDir = path.resolve(repoRoot, option('dist', 'dist'));

// Relative accuracies timed for every workload: the default, 1e-5, and a ladder of tighter ones from
// which "matched" is chosen: the loosest whose whole bracket is within dp_accounting's least error
// (the finer the ladder, the closer to equal accuracy the match).
const accuracies = [undefined, 1e-5, 4e-6, 3e-6, 2e-6, 1.5e-6, 1e-6];
// Each round times every dpcalc variant for at least this long (one call when it takes longer).
const kRoundMilliseconds = 20;

/** Why dp_accounting cannot run here, or '' when it can. */
function missingPython(python, env) {
  if (!process.env.DP_ACCOUNTING_PATH) return 'DP_ACCOUNTING_PATH is not set (the path of python/dp_accounting)';
  const check = spawnSync(python, ['-c', 'import numpy, scipy, absl, attr, dp_accounting'], { env, encoding: 'utf8' });
  if (check.error) return `${python} could not be started (${check.error.message})`;
  if (check.status !== 0) return `${python} cannot import dp_accounting and its packages: ${check.stderr.trim()}`;
  return '';
}

/** A dp_accounting process answering one workload per request, in order. */
function startDpAccounting(python, env) {
  const script = path.join(repoRoot, 'tests', 'bench', 'dp_accounting_workloads.py');
  const child = spawn(python, [script], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()(JSON.parse(line)));
  return {
    run: (key) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${key}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const formatMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const accuracyName = (accuracy) => (accuracy === undefined ? 'default (5e-4)' : String(accuracy));

async function main() {
  const python = process.env.DP_ACCOUNTING_PYTHON ?? '/usr/bin/python3';
  const env = { ...process.env, PYTHONPATH: process.env.DP_ACCOUNTING_PATH ?? '' };
  const missing = missingPython(python, env);
  if (missing) {
    console.log(`dp_accounting comparison skipped: ${missing}.`);
    return;
  }
  if (!existsSync(path.join(distDir, 'dpcalc.js'))) {
    const { buildDist } = await import('./build.mjs');
    await buildDist();
  }
  const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
  const calc = await createCalculator();
  const dpAccounting = startDpAccounting(python, env);

  const rows = [];
  for (const workload of comparedWorkloads.filter(({ key }) => only.length === 0 || only.includes(key))) {
    const variants = accuracies.map((accuracy) => ({
      accuracy,
      request: workload.request(accuracy === undefined ? undefined : { relative_accuracy: accuracy }),
      times: [],
    }));
    for (const variant of variants) {
      const response = calc.compute(variant.request); // warm-up, and the answer
      if (!response.ok) throw new Error(`${workload.name}: ${JSON.stringify(response.error)}`);
      variant.upper = response.result.epsilon_upper ?? response.result.guarantee.epsilon;
      variant.lower = response.result.epsilon_lower;
    }
    const reference = { times: [] };
    const pipeline = workload.numpyPipeline && { ...workload.numpyPipeline, times: [] };
    for (let round = 0; round < rounds; round++) {
      const answer = await dpAccounting.run(workload.key);
      reference.epsilon = answer.epsilon;
      reference.times.push(answer.seconds * 1000);
      if (pipeline) {
        const { seconds } = await dpAccounting.run(`numpy_pipeline ${pipeline.size} ${pipeline.power}`);
        pipeline.times.push(seconds * 1000);
      }
      for (const variant of variants) {
        // A request of a millisecond is timed over kRoundMilliseconds of calls: the first call after
        // dp_accounting's run finds cold caches, which a single sample would report.
        const until = performance.now() + kRoundMilliseconds;
        do {
          const start = performance.now();
          calc.compute(variant.request);
          variant.times.push(performance.now() - start);
        } while (performance.now() < until);
      }
    }
    // dp_accounting's error against the tightest bracket (which holds the exact epsilon).
    const tightest = variants.reduce((a, b) => (b.upper - b.lower < a.upper - a.lower ? b : a));
    const eps = reference.epsilon;
    const leastError = Math.max(0, tightest.lower - eps, eps - tightest.upper);
    const mostError = Math.max(Math.abs(eps - tightest.lower), Math.abs(eps - tightest.upper));
    const matched = variants
      .filter((variant) => variant.accuracy !== undefined && variant.upper - variant.lower <= leastError)
      .sort((a, b) => b.accuracy - a.accuracy)[0];
    rows.push({ workload, reference, variants, leastError, mostError, matched, pipeline });
  }
  dpAccounting.close();

  console.log(
    '\n| workload | dp_accounting ε (step 1e-4) | its error | dp_accounting | relative accuracy | dpcalc [ε lower, ε upper] | width / ε | dpcalc | ratio |',
  );
  console.log('|---|---:|---:|---:|---|---:|---:|---:|---:|');
  for (const { workload, reference, variants, leastError, mostError, matched } of rows) {
    const error =
      leastError > 0
        ? `${(leastError / reference.epsilon).toExponential(1)} … ${(mostError / reference.epsilon).toExponential(1)}`
        : `< ${(mostError / reference.epsilon).toExponential(1)} (inside the tightest bracket)`;
    for (const variant of variants) {
      const dpcalc = median(variant.times);
      const label = `${accuracyName(variant.accuracy)}${variant === matched ? ' (matched)' : ''}`;
      console.log(
        `| ${workload.name} | ${reference.epsilon.toPrecision(10)} | ${error} | ${formatMs(median(reference.times))} | ${label} | [${variant.lower.toPrecision(10)}, ${variant.upper.toPrecision(10)}] | ${((variant.upper - variant.lower) / variant.upper).toExponential(1)} | ${formatMs(dpcalc)} | ${(median(reference.times) / dpcalc).toFixed(1)}× |`,
      );
    }
    if (!matched) {
      console.log(`| ${workload.name} | | | | matched: none tried is as tight as dp_accounting's error | | | | |`);
    }
  }
  console.log(
    `\n(${rounds} rounds, alternating; dp_accounting's error is relative, bounded by the tightest dpcalc bracket of the run.)`,
  );
  // The engine's speed line: dpcalc at the pipeline's accuracy and at the matched one, dp_accounting,
  // and one numpy rfft + complex power + irfft at dp_accounting's grid, all from the rounds above.
  const withPipeline = rows.filter(({ pipeline }) => pipeline);
  if (withPipeline.length > 0) {
    console.log(
      '\n| workload | dpcalc | dp_accounting (step 1e-4) | dpcalc at equal accuracy | dp_accounting / dpcalc at equal accuracy | numpy rfft + power + irfft | dpcalc / numpy |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
  }
  for (const { workload, reference, variants, matched, pipeline } of withPipeline) {
    const at = variants.find((variant) => variant.accuracy === pipeline.accuracy);
    const dpcalc = median(at.times);
    const numpy = median(pipeline.times);
    const equal = matched ? `${formatMs(median(matched.times))} (${matched.accuracy})` : 'none tried';
    const ratio = matched ? `${(median(reference.times) / median(matched.times)).toFixed(1)}×` : '—';
    console.log(
      `| ${workload.name} | ${formatMs(dpcalc)} (${pipeline.accuracy}) | ${formatMs(median(reference.times))} | ${equal} | ${ratio} | ${formatMs(numpy)} (${pipeline.size} points, power ${pipeline.power}) | ${(dpcalc / numpy).toFixed(2)}× |`,
    );
  }
}

await main();
