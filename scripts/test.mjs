// npm test: installs what is missing, then runs every level and exits non-zero on any failure:
//   0. formatting and lint                         (scripts/lint.mjs: clang-format, ESLint, Prettier)
//   1. the native doctest suite of core/          (build/native/dpcalc_tests)
//   2. the same suite under ASan + UBSan          (build/sanitize/dpcalc_tests)
//   3. the JS API against the built dist/          (node --test tests/node)
//   4. the page in headless Chromium and Firefox ESR (node --test tests/browser)
// It ends with one line "N passed, N failed" summing the test cases of all levels.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './install.mjs';
import { buildDist, buildNative, buildSanitized } from './build.mjs';
import { lint } from './lint.mjs';

function runLevel(name, command, args, parse, env = process.env) {
  console.log(`\n=== ${name} ===`);
  const child = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20, env });
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

// `npm test -- --only native,node` runs some levels: lint, native, sanitize, node, browser.
const onlyFlag = process.argv.indexOf('--only');
const chosen = onlyFlag < 0 ? null : new Set(process.argv[onlyFlag + 1]?.split(','));
const wanted = (level) => chosen === null || chosen.has(level);

ensureDependencies();
const totals = { passed: 0, failed: 0 };
const add = ({ passed, failed }) => {
  totals.passed += passed;
  totals.failed += failed;
};

if (wanted('lint')) {
  console.log('\n=== Formatting and lint ===');
  const lintFailures = lint();
  add({ passed: 3 - lintFailures, failed: lintFailures });
}
if (wanted('native')) add(runLevel('C++ core (doctest)', buildNative(), [], parseDoctest));
if (wanted('sanitize')) {
  // halt_on_error: the first report fails the run (doctest then prints no summary).
  const env = {
    ...process.env,
    ASAN_OPTIONS: 'halt_on_error=1:detect_leaks=1',
    UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1',
  };
  add(runLevel('C++ core under AddressSanitizer + UBSan', buildSanitized(), [], parseDoctest, env));
}
if (wanted('node') || wanted('browser')) await buildDist();
if (wanted('node'))
  add(runLevel('JS API (node --test)', process.execPath, ['--test', ...testFiles('node')], parseNodeTest));
if (wanted('browser')) {
  const files = testFiles('browser');
  add(
    runLevel(
      'Page (headless Chromium, Firefox)',
      process.execPath,
      ['--test', '--test-concurrency=1', ...files],
      parseNodeTest,
    ),
  );
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
