// The command line (web/cli.js, the package's `dpcalc` bin, built to dist/cli.js): every example
// request of README.md and docs/API.md gets the JS API's own response (`--json`) and exit status;
// requests from flags in the request's field names, from stdin and through `npx dpcalc`; the
// headline it prints; a refused request names its field and exits with 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadCalculator } from './helpers.mjs';
import { exampleRequests } from '../../scripts/docs.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cliFile = path.join(repoRoot, 'dist', 'cli.js');
const run = promisify(execFile);

/** Runs the command line with `args` (and `input` on stdin): { code, stdout, stderr }. */
function dpcalc(args, { input, command = process.execPath, prefix = [cliFile] } = {}) {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      [...prefix, ...args],
      { cwd: repoRoot, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
    child.stdin.end(input ?? '');
  });
}

const calc = await loadCalculator();

test(
  'every example request of README.md and docs/API.md answers as the JS API does',
  { timeout: 600_000 },
  async () => {
    const examples = exampleRequests();
    assert.ok(examples.length >= 60, `the documents hold ${examples.length} examples`);
    for (const { where, request } of examples) {
      const expected = calc.compute(request);
      const { code, stdout, stderr } = await dpcalc(['--json', JSON.stringify(request)]);
      assert.deepEqual(JSON.parse(stdout), expected, where);
      assert.equal(code, expected.ok ? 0 : 1, `${where}: exit status (${stderr})`);
      if (!expected.ok) assert.ok(stderr.includes(expected.error.message), `${where}: ${stderr}`);
    }
  },
);

test('the headline: the answer rounded as the page rounds it, its method and citation', async () => {
  // Group privacy of (1, 10⁻⁶)-DP for k = 8: (kε, δ(e^{kε} − 1)/(e^ε − 1)) = (8, 0.0017342661…)
  // (Vadhan 2017, Lemma 2.2), δ rounded up to five digits.
  const request = { op: 'group', k: 8, guarantee: { type: 'approx', epsilon: 1, delta: 1e-6 } };
  const { code, stdout } = await dpcalc([JSON.stringify(request)]);
  assert.equal(code, 0);
  assert.equal(stdout, 'ε ≤ 8, δ ≤ 0.0017343 — Group privacy, approximate DP (Vadhan 2017, Lemma 2.2)\n');
  // A calibration says the value it found: σ = 37.306316… for 100 Gaussian releases at (1, 10⁻⁵)
  // (the JS API's answer, rounded up).
  const calibrated = await dpcalc([
    'calibrate',
    '--mechanism.type',
    'gaussian',
    '--mechanism.sensitivity',
    '1',
    '--unknown',
    'sigma',
    '--count',
    '100',
    '--target.epsilon',
    '1',
    '--target.delta',
    '1e-5',
  ]);
  const sigma = calc.compute({
    op: 'calibrate',
    mechanism: { type: 'gaussian', sensitivity: 1 },
    unknown: 'sigma',
    count: 100,
    target: { epsilon: 1, delta: 1e-5 },
  }).result.sigma;
  assert.ok(Math.abs(sigma - 37.3063) < 1e-3, `σ = ${sigma}`);
  assert.match(calibrated.stdout, /^σ = 37\.307: ε ≤ 1 at δ = 1 × 10⁻⁵ — Analytic Gaussian mechanism/);
});

test('flags in the request field names: kebab-case for snake_case, numbers parsed, dots for nesting', async () => {
  const dpsgd = {
    op: 'dpsgd',
    sampling: 'poisson',
    dataset_size: 50000,
    batch_size: 256,
    epochs: 30,
    noise_multiplier: 1.1,
    delta: 1e-5,
    group_size: 4,
  };
  const flags = [
    'dpsgd',
    '--sampling',
    'poisson',
    '--dataset-size',
    '50000',
    '--batch-size',
    '256',
    '--epochs',
    '30',
    '--noise-multiplier',
    '1.1',
    '--delta',
    '1e-5',
    '--group-size',
    '4',
  ];
  const fromFlags = await dpcalc([...flags, '--json']);
  assert.deepEqual(JSON.parse(fromFlags.stdout), calc.compute(dpsgd));
  assert.equal(fromFlags.code, 0);
  const headline = await dpcalc(flags);
  const { result } = calc.compute(dpsgd);
  assert.ok(headline.stdout.startsWith('ε ≤ '), headline.stdout);
  assert.ok(headline.stdout.includes(result.citation), headline.stdout);
  const nested = ['group', '--k', '4', '--mechanism.type', 'gaussian', '--mechanism.sigma', '2', '--delta', '1e-5'];
  assert.deepEqual(
    JSON.parse((await dpcalc([...nested, '--json'])).stdout),
    calc.compute({ op: 'group', k: 4, mechanism: { type: 'gaussian', sigma: 2 }, delta: 1e-5 }),
  );
  // A list's element by its index, over a JSON request; --field=value works too.
  const ledger = { op: 'compose', method: 'basic', items: [{ guarantee: { type: 'pure', epsilon: 0.5 }, count: 2 }] };
  assert.deepEqual(
    JSON.parse((await dpcalc([JSON.stringify(ledger), '--items.0.count=3', '--json'])).stdout),
    calc.compute({ ...ledger, items: [{ ...ledger.items[0], count: 3 }] }),
  );
});

test('a request on stdin, and through npx dpcalc', async () => {
  const request = { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6 };
  const piped = await dpcalc(['--json'], { input: JSON.stringify(request) });
  assert.deepEqual(JSON.parse(piped.stdout), calc.compute(request));
  const dash = await dpcalc(['-'], { input: JSON.stringify(request) });
  assert.match(dash.stdout, /^ε ≤ 5\.2216 at δ = 1 × 10⁻⁶ — /);
  const { stdout } = await run('npx', ['--offline', 'dpcalc', '--json', JSON.stringify(request)], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.deepEqual(JSON.parse(stdout), calc.compute(request));
});

test('a refused request exits with 1 and says which field and why; an unreadable command line with 2', async () => {
  const refused = await dpcalc([
    'dpsgd',
    '--sampling',
    'poisson',
    '--sampling-rate',
    '0.01',
    '--steps',
    '100',
    '--noise-multiplier',
    '-1',
    '--delta',
    '1e-5',
  ]);
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, '');
  assert.equal(
    refused.stderr,
    'dpcalc: invalid_argument at noise_multiplier (--noise-multiplier): noise_multiplier must be 0 or more (got -1).\n',
  );
  const typo = await dpcalc(['group', '--kk', '2', '--guarantee.type', 'pure', '--guarantee.epsilon', '1']);
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /^dpcalc: invalid_argument at kk \(--kk\): kk is not a field/);
  const broken = await dpcalc(['{"op": "group"']);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /^dpcalc: The request is not JSON/);
});

/** The `npx dpcalc …` lines of README.md (joined where they end in \) with the `# …` line under each. */
function readmeCommands() {
  const lines = readFileSync(path.join(repoRoot, 'README.md'), 'utf8').split('\n');
  const commands = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!lines[i].startsWith('npx dpcalc ')) continue;
    let command = lines[i];
    while (command.endsWith('\\')) command = `${command.slice(0, -1)}${lines[(i += 1)].trim()}`;
    if (lines[i + 1]?.startsWith('# ')) commands.push({ command, output: lines[i + 1].slice(2) });
  }
  return commands;
}

test("the README's command lines print what README.md says", async () => {
  const commands = readmeCommands();
  assert.ok(commands.length >= 2, `README.md shows ${commands.length} commands with their output`);
  for (const { command, output } of commands) {
    // The shell's words: none of these quote a space.
    const args = command.slice('npx dpcalc '.length).split(/\s+/).filter(Boolean);
    const { code, stdout } = await dpcalc(args);
    assert.equal(code, 0, command);
    assert.equal(stdout, `${output}\n`, command);
  }
});
