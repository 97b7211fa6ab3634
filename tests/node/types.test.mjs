// The TypeScript types shipped in dist/ (dpcalc.d.ts, client.d.ts, dp-calculator.d.ts) compile, accept a
// request of every op and refuse the misspelt fields the calculator refuses (tests/types/requests.ts),
// and give each request the result type of its op and method (tests/types/results.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the shipped types compile under tsc --strict and type every op', () => {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const files = ['tests/types/requests.ts', 'tests/types/results.ts', 'dist/client.d.ts', 'dist/dp-calculator.d.ts'];
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck', 'false'];
  const run = spawnSync(process.execPath, [tsc, ...args, ...files], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
