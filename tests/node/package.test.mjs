// dist/ as an npm package: a copy of it installed into a fresh project whose package.json has no
// "type" (so its .js files are CommonJS) is imported by name from CommonJS, through import(); the
// manifest points at files that exist; the licence and the third-party notices ship with it; an app
// bundled for browsers gets one wasm file from the JS API, the client and the element together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

// What an app bundling the package for browsers imports: the JS API (and its glue), the client and
// the element. A bundler (Vite, webpack) emits every file such a module names with
// new URL('…', import.meta.url), and warns about the ones that do not exist and about Node modules.
const kBrowserModules = ['dpcalc.js', 'dpcalc-module.js', 'dpcalc-client.js', 'dp-calculator.js'];
const manifestTargets = (manifest) =>
  Object.values(manifest.exports).flatMap((value) => (typeof value === 'string' ? [value] : [value.default]));

test('the JS API, the client and the element an app bundles name one wasm file and no Node module', () => {
  const manifest = readJson(path.join(distDir, 'package.json'));
  for (const file of kBrowserModules.filter((name) => name !== 'dpcalc-module.js'))
    assert.ok(manifestTargets(manifest).includes(`./${file}`), `the package exports ${file}`);
  const urls = new Set();
  for (const file of kBrowserModules) {
    const source = readFileSync(path.join(distDir, file), 'utf8');
    for (const [, url] of source.matchAll(/new URL\(\s*(['"`][^'"`]*['"`])\s*,\s*import\.meta\.url\s*\)/g))
      urls.add(`${file}: ${url.slice(1, -1)}`);
    assert.doesNotMatch(
      source,
      /\bimport\s*\(\s*['"`]node:|\bfrom\s*['"]node:/,
      `${file} imports no Node module by name`,
    );
  }
  assert.deepEqual(
    [...urls].filter((entry) => /\.wasm$/.test(entry)).map((entry) => entry.split(': ')[1]),
    ['./dpcalc.wasm'],
    [...urls].join('; '),
  );
  for (const entry of urls) assert.ok(existsSync(path.join(distDir, entry.split(': ')[1])), `${entry} exists`);
});

// With Vite at hand (it is no dependency of this repository: DPCALC_VITE names its package folder,
// e.g. after `npm install vite` in a folder of its own), the check as an app's author makes it: a
// page that imports the JS API and the element, built by Vite, has one wasm file and Vite says no
// warning.
const vitePackage = process.env.DPCALC_VITE;
test(
  'a Vite app that uses the JS API and the element: one wasm file, no warning',
  { skip: vitePackage ? false : 'DPCALC_VITE is not set (the folder of an installed vite package)' },
  async () => {
    const { build, createLogger } = await import(
      pathToFileURL(path.join(vitePackage, 'dist', 'node', 'index.js')).href
    );
    const project = mkdtempSync(path.join(tmpdir(), 'dpcalc-vite-'));
    try {
      cpSync(distDir, path.join(project, 'node_modules', 'dpcalc'), {
        recursive: true,
        filter: (source) => !/\.(br|gz)$/.test(source),
      });
      writeFileSync(
        path.join(project, 'index.html'),
        '<!doctype html><title>app</title><p id="out"></p><dp-calculator section="group" k="8"></dp-calculator><script type="module" src="/main.js"></script>',
      );
      writeFileSync(
        path.join(project, 'main.js'),
        "import { createCalculator } from 'dpcalc';\nimport 'dpcalc/dp-calculator';\nimport { createWorkerCalculator } from 'dpcalc/client';\n" +
          'const calc = await createCalculator();\nconsole.log(calc, createWorkerCalculator);\n',
      );
      const said = [];
      const logger = createLogger('info');
      logger.warn = (message) => said.push(message);
      logger.warnOnce = (message) => said.push(message);
      logger.error = (message) => said.push(message);
      await build({
        root: project,
        configFile: false,
        logLevel: 'warn',
        customLogger: logger,
        build: { target: 'es2022', outDir: path.join(project, 'out') },
      });
      const assets = readdirSync(path.join(project, 'out', 'assets'));
      assert.deepEqual(
        assets.filter((file) => file.endsWith('.wasm')).map((file) => file.replace(/-[\w-]+\.wasm$/, '.wasm')),
        ['dpcalc.wasm'],
        assets.join(', '),
      );
      assert.deepEqual(said, []);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  },
);
