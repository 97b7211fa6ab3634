// The trade-off's share of small numeric answers (issue 16: at most 20% on top of the answer), through
// dist/dpcalc.js in Node: each round times the answer, then its trade-off right after it (as the page
// asks, reading the PLDs the answer kept); prints the median of each over the rounds and their ratio,
// in wall time and in the process's CPU time (which a machine shared with other work disturbs less).
// Build dist/ first (node scripts/build.mjs). Usage: node tests/bench/tradeoff_overhead.mjs [rounds]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tradeoffPairs } from './requests.mjs';

const rounds = Number(process.argv[2] ?? 41);
const distDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
const calc = await createCalculator();

const pld = (mechanism, count) => ({ op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism, count }] });
const rows = [
  { name: 'Laplace b 10, ×1000', answer: pld({ type: 'laplace', scale: 10 }, 1000) },
  {
    name: 'Poisson-subsampled Laplace q 0.01 (b 1), ×1000',
    answer: pld({ type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'laplace', scale: 1 } }, 1000),
  },
  {
    name: 'randomized response p 0.5, k 2, ×365 (substitute)',
    answer: {
      ...pld({ type: 'randomized_response', noise_parameter: 0.5, num_buckets: 2 }, 365),
      relation: 'substitute',
    },
  },
  {
    name: 'bare (ε, δ) = (1, 1e-6) guarantee (no answer)',
    of: { guarantee: { type: 'approx', epsilon: 1, delta: 1e-6 } },
  },
  ...tradeoffPairs,
];

// Wall and CPU time of one call, in ms.
const timed = (request) => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const response = calc.compute(request);
  const wall = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  if (!response.ok) throw new Error(`${JSON.stringify(request)}: ${JSON.stringify(response.error)}`);
  return { wall, cpu: (user + system) / 1000, response };
};
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const ms = (value) => (Number.isNaN(value) ? '—' : `${value.toFixed(2)} ms`);
const share = (part, whole) => (Number.isNaN(whole) ? '—' : `${((100 * part) / whole).toFixed(0)}%`);

console.log(
  `| answer (median of ${rounds}) | grid | answer | trade-off | share | answer (CPU) | trade-off (CPU) | share (CPU) |`,
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const { name, answer, of } of rows) {
  const tradeoff = { op: 'tradeoff', of: of ?? answer, fpr: [1e-3], prior: 0.5 };
  const times = { answerWall: [], answerCpu: [], wall: [], cpu: [] };
  let grid = '';
  for (let round = 0; round < rounds + 1; ++round) {
    const answered = answer ? timed(answer) : null;
    const explained = timed(tradeoff);
    if (round === 0) continue; // warm-up
    if (answered) {
      times.answerWall.push(answered.wall);
      times.answerCpu.push(answered.cpu);
    }
    times.wall.push(explained.wall);
    times.cpu.push(explained.cpu);
    grid = explained.response.result.grid_size ?? '';
  }
  const answerWall = answer ? median(times.answerWall) : NaN;
  const answerCpu = answer ? median(times.answerCpu) : NaN;
  const [wall, cpu] = [median(times.wall), median(times.cpu)];
  console.log(
    `| ${name} | ${grid} | ${ms(answerWall)} | ${ms(wall)} | ${share(wall, answerWall)} | ${ms(answerCpu)} | ${ms(cpu)} | ${share(cpu, answerCpu)} |`,
  );
}
