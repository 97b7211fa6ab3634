// npm test: installs what is missing, then runs every level and exits non-zero on any failure:
//   0. formatting and lint                         (scripts/lint.mjs: clang-format, ESLint, Prettier, layering)
//   1. the native doctest suite of core/          (build/native/dpcalc_tests)
//   2. the same suite under ASan + UBSan          (build/sanitize/dpcalc_tests)
//   3. the JS API against the built dist/          (node --test tests/node)
//   4. the page in headless Chromium and Firefox ESR (node --test tests/browser)
// It ends with one line "N passed, N failed" summing the test cases of all levels. Levels 1 and 2
// run their (single-threaded) test binary while the next build compiles (the sanitized build, then
// dist/); each level's output is printed whole once it is done, in this order.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './install.mjs';
import { buildDist, buildNative, buildSanitized } from './build.mjs';
import { lint, lintChecks } from './lint.mjs';

/** Prints a level's output and its count line; a crash or a runner error without a summary still fails. */
function reportLevel(name, { status, stdout, stderr }, parse) {
  console.log(`\n=== ${name} ===`);
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  const counts = parse(stdout);
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed`);
  return counts;
}

function runLevel(name, command, args, parse, env = process.env) {
  const child = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20, env });
  return reportLevel(name, { status: child.status, stdout: child.stdout ?? '', stderr: child.stderr ?? '' }, parse);
}

/**
 * Starts a level in the background, its output going to files (not pipes: the builds that run
 * meanwhile block this process, so nothing could drain a pipe). The single-threaded test binaries
 * run this way while the next build compiles. The returned function waits for it, then prints its
 * whole output and counts, so each level's output stays in one piece and the levels keep their order.
 */
function startLevel(name, command, args, parse, env = process.env) {
  console.log(`\n(${name}: running in the background; its output follows when it is done)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'dpcalc-test-'));
  const files = { stdout: path.join(dir, 'stdout'), stderr: path.join(dir, 'stderr') };
  const fds = [openSync(files.stdout, 'w'), openSync(files.stderr, 'w')];
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', ...fds] });
  fds.forEach((fd) => closeSync(fd));
  const exited = new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: 1, error }));
    child.on('exit', (code, signal) => resolve({ status: signal ? 1 : code }));
  });
  return async () => {
    const { status, error } = await exited;
    const read = (file) => readFileSync(file, 'utf8');
    const output = { status, stdout: read(files.stdout), stderr: read(files.stderr) + (error ? `${error}\n` : '') };
    rmSync(dir, { recursive: true, force: true });
    return reportLevel(name, output, parse);
  };
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
  add({ passed: lintChecks - lintFailures, failed: lintFailures });
}
// Each doctest binary runs (one thread) while the next build compiles; at most one runs at a time.
let finishRunning = async () => ({ passed: 0, failed: 0 });
if (wanted('native')) finishRunning = startLevel('C++ core (doctest)', buildNative(), [], parseDoctest);
if (wanted('sanitize')) {
  const binary = buildSanitized();
  add(await finishRunning());
  // halt_on_error: the first report fails the run (doctest then prints no summary).
  const env = {
    ...process.env,
    ASAN_OPTIONS: 'halt_on_error=1:detect_leaks=1',
    UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=1',
  };
  finishRunning = startLevel('C++ core under AddressSanitizer + UBSan', binary, [], parseDoctest, env);
}
if (wanted('node') || wanted('browser')) await buildDist();
add(await finishRunning());
// Two Node test files at a time (the default is one on two cores): they compute, and do not time
// anything, so two share the machine without changing a result; 77 s became 56 s.
if (wanted('node')) {
  const args = ['--test', '--test-concurrency=2', ...testFiles('node')];
  add(runLevel('JS API (node --test)', process.execPath, args, parseNodeTest));
}
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
