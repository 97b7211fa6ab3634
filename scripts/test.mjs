// npm test: installs what is missing, then runs every level and exits non-zero on any failure:
//   0. formatting and lint                         (scripts/lint.mjs: clang-format, ESLint, Prettier)
//   1. the native doctest suite of core/          (build/native/dpcalc_tests)
//   2. the JS API against the built dist/          (node --test tests/node)
//   3. the page in headless Chromium and Firefox ESR (node --test tests/browser)
// It ends with one line "N passed, N failed" summing the test cases of all levels.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './install.mjs';
import { buildDist, buildNative } from './build.mjs';
import { lint } from './lint.mjs';

function runLevel(name, command, args, parse) {
  console.log(`\n=== ${name} ===`);
  const child = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 });
  process.stdout.write(child.stdout ?? '');
  process.stderr.write(child.stderr ?? '');
  const counts = parse(child.stdout ?? '');
  // A crash or a runner error without a summary still counts as a failure.
  if (child.status !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed`);
  return counts;
}

function parseDoctest(output) {
  const match = output.match(/test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/);
  return match ? { passed: Number(match[2]), failed: Number(match[3]) } : { passed: 0, failed: 0 };
}

function parseNodeTest(output) {
  const number = (label) => Number(output.match(new RegExp(`^# ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
  return { passed: number('pass'), failed: number('fail') + number('cancelled') };
}

function testFiles(folder) {
  const dir = path.join(repoRoot, 'tests', folder);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.test.mjs'))
    .map((file) => path.join('tests', folder, file));
}

ensureDependencies();
const totals = { passed: 0, failed: 0 };
console.log('\n=== Formatting and lint ===');
const lintFailures = lint();
totals.passed += 3 - lintFailures;
totals.failed += lintFailures;
const add = ({ passed, failed }) => {
  totals.passed += passed;
  totals.failed += failed;
};

add(runLevel('C++ core (doctest)', buildNative(), [], parseDoctest));
await buildDist();
add(runLevel('JS API (node --test)', process.execPath, ['--test', ...testFiles('node')], parseNodeTest));
add(
  runLevel(
    'Page (headless Chromium, Firefox)',
    process.execPath,
    ['--test', '--test-concurrency=1', ...testFiles('browser')],
    parseNodeTest,
  ),
);

console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
