// dist/ as an npm package: a copy of it installed into a fresh project whose package.json has no
// "type" (so its .js files are CommonJS) is imported by name from CommonJS, through import(); the
// manifest points at files that exist; the licence and the third-party notices ship with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = path.join(repoRoot, 'dist');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

test('a CommonJS project imports the installed dist/ by its package name', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'dpcalc-consumer-'));
  try {
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    // A copy, not a link: Node would follow a link back into this repository and its package.json.
    cpSync(distDir, path.join(project, 'node_modules', 'dpcalc'), {
      recursive: true,
      filter: (source) => !/\.(br|gz)$/.test(source),
    });
    writeFileSync(
      path.join(project, 'index.js'),
      `
      import('dpcalc').then(async ({ createCalculator }) => {
        const calc = await createCalculator();
        const group = calc.compute({ op: 'group', k: 3, guarantee: { type: 'pure', epsilon: 0.5 } });
        const bad = calc.compute({ op: 'group', k: 3, guarantee: { type: 'pure', epsilon: -1 } });
        const { version } = require('dpcalc/package.json');
        console.log(JSON.stringify({ group, field: bad.error.field, version }));
      });`,
    );
    const output = JSON.parse(execFileSync(process.execPath, ['index.js'], { cwd: project, encoding: 'utf8' }));
    // Group privacy of pure DP: kε = 3 × 0.5 (Dwork & Roth 2014, Thm 2.2).
    assert.equal(output.group.ok, true);
    assert.deepEqual(output.group.result.guarantee, { type: 'pure', epsilon: 1.5 });
    assert.equal(output.field, 'guarantee.epsilon');
    assert.equal(output.version, readJson(path.join(repoRoot, 'package.json')).version);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

test('dist/package.json is a module package whose exports and types exist', () => {
  const manifest = readJson(path.join(distDir, 'package.json'));
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.license, 'Apache-2.0');
  assert.equal(manifest.types, './dpcalc.d.ts');
  assert.deepEqual(manifest.exports['.'], { types: './dpcalc.d.ts', default: './dpcalc.js' });
  const targets = Object.values(manifest.exports).flatMap((value) =>
    typeof value === 'string' ? [value] : Object.values(value),
  );
  for (const target of targets) assert.ok(existsSync(path.join(distDir, target)), target);
  const types = readFileSync(path.join(distDir, 'dpcalc.d.ts'), 'utf8');
  for (const name of [
    'export function createCalculator',
    'export type Request',
    'export type Response',
    'export interface Result',
  ]) {
    assert.ok(types.includes(name), `dpcalc.d.ts declares ${name}`);
  }
});

test('the Apache-2.0 licence and the notices of every bundled package ship in dist/', () => {
  const licence = readFileSync(path.join(distDir, 'LICENSE'), 'utf8');
  assert.equal(licence, readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8'));
  assert.match(licence, /Apache License\s+Version 2\.0, January 2004/);
  assert.match(licence, /END OF TERMS AND CONDITIONS/);
  const notices = readFileSync(path.join(distDir, 'THIRD_PARTY_NOTICES.md'), 'utf8');
  for (const name of ['katex', '@observablehq/plot', 'd3-array', 'd3-scale', 'd3-shape']) {
    assert.match(notices, new RegExp(`^## ${name.replace('/', '\\/')} \\d`, 'm'), name);
  }
  assert.match(notices, /KaTeX fonts in vendor\/katex\/fonts\//);
  assert.match(notices, /Copyright \(c\) 2013-\d+ Khan Academy/);
  assert.doesNotMatch(notices, /^## axe-core/m);
});
