// npm run fuzz [-- --requests N --seed S --numeric-share F --ops a,b]: the long fuzz campaign (default 10^6
// requests) against the built JS API, over every op of tests/fuzz/generator.mjs or those of --ops;
// prints the figures (requests, throws, NaN/∞ results, bad fields and messages, hangs, closed-form
// requests over a second, slowest request, wasm memory) and exits non-zero on any violation. Build
// first (npm run build).
import { parseArgs } from 'node:util';
import { runFuzz } from '../tests/fuzz/runner.mjs';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '20261123' },
    // Numeric requests take milliseconds to seconds each; 0.2% of 10^6 is 2,000 of them.
    'numeric-share': { type: 'string', default: '0.002' },
    ops: { type: 'string' },
  },
});
const requests = Number(values.requests);
const seed = Number(values.seed);
const numericShare = Number(values['numeric-share']);
const started = performance.now();
const stats = await runFuzz({
  seed,
  requests,
  numericShare,
  ops: values.ops?.split(','),
  capMs: 30000,
  progressEvery: Math.max(1, Math.round(requests / 20)),
  onProgress: (s) =>
    process.stderr.write(`  ${s.requests} requests, ${((performance.now() - started) / 1000).toFixed(0)} s\n`),
});
const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
const violations =
  stats.throws +
  stats.nonFinite +
  stats.beyondLimits +
  stats.badField +
  stats.badMessage +
  stats.malformed +
  stats.hangs +
  stats.slow;
console.log(
  `seed ${seed}; ops ${stats.ops.join(', ')}${stats.skippedOps.length ? ` (not in this build: ${stats.skippedOps.join(', ')})` : ''}`,
);
console.log(
  `requests     ${stats.requests + stats.hangs} (${stats.ok} ok, ${stats.errors} errors, ${stats.cancelled} numeric cancelled after 3 s, ${stats.hangs} hung) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
console.log(`throws       ${stats.throws}`);
console.log(`NaN/∞ in ok  ${stats.nonFinite}`);
console.log(`solved beyond limits ${stats.beyondLimits}`);
console.log(`bad fields   ${stats.badField}`);
console.log(`bad messages ${stats.badMessage}`);
console.log(`malformed    ${stats.malformed}`);
console.log(`hangs        ${stats.hangs}`);
console.log(`closed > 1 s ${stats.slow}`);
console.log(`violations   ${violations}${violations ? ` (by op: ${JSON.stringify(stats.violationsBy)})` : ''}`);
console.log(`slowest      ${stats.slowest.ms.toFixed(0)} ms: ${stats.slowest.request}`);
if (stats.memoryStart && stats.memoryEnd) {
  console.log(
    `wasm memory  heap ${mib(stats.memoryStart.heapBytes)} → ${mib(stats.memoryEnd.heapBytes)} MiB; in use ${stats.memoryStart.inUseBytes} → ${stats.memoryEnd.inUseBytes} bytes`,
  );
}
for (const example of stats.examples) console.log(`  ${example.kind}: ${example.detail}\n    ${example.request}`);
process.exit(violations === 0 ? 0 : 1);
