// The DP-SGD samplers on the worked example of docs/API.md, op 'dpsgd_samplers' (N = 60000,
// B = 256, σ = 1, 10 epochs, δ = 1e-5): dpcalc's time for truncated Poisson at caps 384, 307, 281
// (1.5·B, 1.2·B, 1.1·B), the shuffling lower bound (re-shuffled and persistent), balls-and-bins and
// the whole side-by-side table, each beside its target; and, in the same run, dp_accounting's
// TruncatedSubsampledGaussianDpEvent for the same trainings (run from source through
// tests/bench/dp_accounting_workloads.py: PLD accountant, REPLACE_SPECIAL, grid 1e-4) with the
// ratio of its time to dpcalc's; balls-and-bins beside the random-allocation PLD of dp_accounting's
// pull request 414 at its 1e-3 grid. A peer is skipped with a note when its path (DP_ACCOUNTING_PATH:
// python/dp_accounting; RANDOM_ALLOCATION_PATH: the same folder at google/differential-privacy commit
// 125d46c) is not set or its Python packages are missing.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const kTraining = { dataset_size: 60000, batch_size: 256, noise_multiplier: 1, epochs: 10, delta: 1e-5 };
const dpsgd = (fields) => ({ op: 'dpsgd', ...kTraining, relation: 'zero_out', ...fields });
const kCaps = [384, 307, 281];

/** The timed requests: name, request, target (ms), and the dp_accounting workload of the same training. */
export const samplerRequests = [
  ...kCaps.map((cap) => ({
    name: `truncated Poisson, cap ${cap}`,
    request: dpsgd({ sampling: 'truncated_poisson', max_batch_size: cap }),
    targetMilliseconds: 100,
    peer: `truncated_poisson_${cap}`,
  })),
  {
    name: 'shuffling, re-shuffled each epoch (lower bound)',
    request: dpsgd({ sampling: 'shuffle', reshuffle: true }),
    targetMilliseconds: 300,
  },
  {
    name: 'shuffling, the same order every epoch (lower bound)',
    request: dpsgd({ sampling: 'shuffle', reshuffle: false }),
    targetMilliseconds: 300,
  },
  {
    name: 'balls-and-bins',
    request: dpsgd({ sampling: 'balls_and_bins' }),
    targetMilliseconds: 1000,
    peer: 'random_allocation',
    peerPath: 'RANDOM_ALLOCATION_PATH',
  },
  {
    name: 'every sampler (op dpsgd_samplers)',
    request: { op: 'dpsgd_samplers', ...kTraining },
    targetMilliseconds: 2000,
  },
];

/**
 * The peer's seconds and ε for `keys` (one process, in order, with the dp_accounting folder named by
 * the environment variable `pathVariable` in PYTHONPATH), or { skipped: why }.
 */
function peerTimes(keys, pathVariable) {
  if (keys.length === 0) return {};
  if (!process.env[pathVariable]) return { skipped: `${pathVariable} is not set (the path of python/dp_accounting)` };
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dp_accounting_workloads.py');
  const run = spawnSync(process.env.DP_ACCOUNTING_PYTHON ?? '/usr/bin/python3', [script], {
    input: `${keys.join('\n')}\n`,
    env: { ...process.env, PYTHONPATH: process.env[pathVariable] },
    encoding: 'utf8',
  });
  if (run.error || run.status !== 0)
    return {
      skipped: `the peer at ${pathVariable} could not run: ${(run.error?.message ?? run.stderr).trim().split('\n').at(-1)}`,
    };
  return Object.fromEntries(
    run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map(({ key, epsilon, seconds }) => [key, { epsilon, milliseconds: 1000 * seconds }]),
  );
}

/** The ε a response reports: its guarantee's, or for the table the row count. */
function epsilonOf(result) {
  if (result.rows) return `${result.rows.length} rows`;
  return `${result.epsilon_lower.toPrecision(5)} … ${result.guarantee.epsilon.toPrecision(5)}`;
}

/**
 * Runs `request` four times: the response (which must be ok) with the first run's time and the median
 * of the three after, in milliseconds.
 */
export function firstAndMedian(calc, request) {
  const times = [];
  let response;
  for (let run = 0; run < 4; run++) {
    const t0 = performance.now();
    response = calc.compute(request);
    times.push(performance.now() - t0);
  }
  if (!response.ok) throw new Error(`${JSON.stringify(request)}: ${JSON.stringify(response.error)}`);
  return { response, first: times[0], median: times.slice(1).sort((a, b) => a - b)[1] };
}

/** Each peer's times by workload key, every peer folder run in one process; { skipped } notes apart. */
function allPeerTimes() {
  const byPath = new Map();
  for (const item of samplerRequests.filter((request) => request.peer)) {
    const pathVariable = item.peerPath ?? 'DP_ACCOUNTING_PATH';
    byPath.set(pathVariable, [...(byPath.get(pathVariable) ?? []), item.peer]);
  }
  const times = {};
  const skipped = [];
  for (const [pathVariable, keys] of byPath) {
    const { skipped: why, ...found } = peerTimes(keys, pathVariable);
    Object.assign(times, found);
    if (why) skipped.push(why);
  }
  return { times, skipped };
}

/** Prints the table: first run and median of 3 after for each request, the peer's code beside it. */
export function printSamplersBench(calc) {
  const { times: peer, skipped } = allPeerTimes();
  console.log(
    '\n| wasm: DP-SGD samplers, N = 60000, B = 256, σ = 1, 10 epochs, δ = 1e-5 | ε | first run | median of 3 after | target | peer (ε, time) | peer / dpcalc |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const { name, request, targetMilliseconds, peer: key } of samplerRequests) {
    const { response, first, median } = firstAndMedian(calc, request);
    const over = median > targetMilliseconds ? ' (over target)' : '';
    const theirs = key && peer[key];
    const peerCells = theirs
      ? `${theirs.epsilon.toPrecision(5)}, ${theirs.milliseconds.toFixed(0)} ms | ${(theirs.milliseconds / median).toFixed(0)}×`
      : ' | ';
    console.log(
      `| ${name} | ${epsilonOf(response.result)} | ${first.toFixed(1)} ms | ${median.toFixed(1)} ms${over} | ≤ ${targetMilliseconds} ms | ${peerCells} |`,
    );
  }
  for (const why of skipped) console.log(`(peer skipped: ${why})`);
  console.log(
    '(peers: dp_accounting TruncatedSubsampledGaussianDpEvent; random allocation: dp_accounting pull request 414)',
  );
}
