// npm run lint: the formatting and lint checks that npm test runs first. Exits non-zero on any
// finding. C++ (core/, wasm/, tests/) must match clang-format 14 with .clang-format; JavaScript
// (web/, scripts/, tests/) must pass ESLint (eslint.config.js) and Prettier (.prettierrc.json); the
// core must keep its layers (scripts/layering.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { repoRoot } from './install.mjs';
import { layeringFindings } from './layering.mjs';

function trackedFiles(patterns) {
  const listed = spawnSync('git', ['ls-files', '--', ...patterns], { cwd: repoRoot, encoding: 'utf8' });
  // Outside a git checkout (an unpacked archive) nothing is listed; the JS tools find their own files.
  return listed.status === 0 ? listed.stdout.split('\n').filter(Boolean) : [];
}

function check(name, command, args) {
  const child = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 });
  const output = `${child.stdout ?? ''}${child.stderr ?? ''}`.trim();
  const passed = child.status === 0;
  console.log(`${passed ? 'ok' : 'FAILED'}: ${name}`);
  if (!passed && output) console.log(output);
  return passed;
}

// Nothing below core/src/api/ knows a request (scripts/layering.mjs).
function layering() {
  const findings = layeringFindings();
  console.log(`${findings.length === 0 ? 'ok' : 'FAILED'}: layering (no request field or path below core/src/api/)`);
  for (const finding of findings) console.log(finding);
  return findings.length === 0;
}

// How many checks lint() runs (npm test counts each as a test).
export const lintChecks = 4;

/** Runs every check; returns the number that failed. */
export function lint() {
  const cppFiles = trackedFiles(['*.cpp', '*.hpp']);
  const bin = (name) => path.join(repoRoot, 'node_modules', '.bin', name);
  const results = [
    check('clang-format (C++)', 'clang-format', ['--dry-run', '--Werror', ...cppFiles]),
    check('ESLint (JavaScript)', bin('eslint'), ['.']),
    check('Prettier (JavaScript, CSS, HTML, JSON)', bin('prettier'), ['--check', '--log-level', 'warn', '.']),
    layering(),
  ];
  return results.filter((passed) => !passed).length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(lint() === 0 ? 0 : 1);
