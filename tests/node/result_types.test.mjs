// The result types of dist/dpcalc.d.ts against what the calculator returns. Every example of
// docs/API.md and README.md (found as scripts/docs.mjs finds them) and a sample of valid fuzzed
// requests (tests/fuzz/generator.mjs) are run against dist/; each response is written into a
// TypeScript file as the value of the type that `calc.compute(<the same request>)` has, and
// tsc --strict must accept the file. The request picks the signature, as it does for a user; the
// response is an object literal, so a field its type lacks is an error, and so is a required one the
// response lacks. The last test removes fields from the types and checks that this fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentedFiles, regenerate } from '../../scripts/docs.mjs';
import { createGenerator, supportedOps } from '../fuzz/generator.mjs';
import { loadCalculator } from './helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = path.join(root, 'build', 'types');
const kFuzzSeed = 2; // any seed; this sample computes in a few seconds
const kFuzzRequests = 400;
const kNumericShare = 0.15;
// Numeric requests past this are cancelled (a cancelled response is still a response to type).
const kNumericBudgetMs = 1000;
// Larger fuzzed requests (a thousand database classes) are left out: they exercise the same types
// as small ones, and tsc takes seconds to resolve the signatures of each.
const kLargestRequest = 10000; // characters of JSON

/** Every documented example as { label, request }, in the order of the documents. */
function documentedRequests() {
  const cases = [];
  for (const file of documentedFiles) {
    const requests = [];
    // A response no example shows, so that every example is reported, with its line.
    const recorder = {
      compute: (request) => {
        requests.push(request);
        return { recorded: requests.length };
      },
    };
    const { stale } = regenerate(readFileSync(path.join(root, file), 'utf8'), recorder, file);
    assert.equal(stale.length, requests.length, `${file}: every example is reported once`);
    // Each is reported as "file:line: request".
    requests.forEach((request, i) => cases.push({ label: stale[i].slice(0, stale[i].indexOf(': ')), request }));
  }
  return cases;
}

/** Valid requests of every op the build knows, drawn by the fuzz generator. */
function fuzzedRequests(calc) {
  const next = createGenerator(kFuzzSeed, { ops: supportedOps(calc), numericShare: kNumericShare, mutatedShare: 0 });
  const cases = [];
  for (let i = 0; i < kFuzzRequests; ++i) {
    const request = next();
    // The generator also draws requests that are not objects, which no request type accepts.
    if (request === null || typeof request !== 'object' || Array.isArray(request)) continue;
    if (JSON.stringify(request).length > kLargestRequest) continue;
    cases.push({ label: `fuzz seed ${kFuzzSeed}, request ${i}`, request });
  }
  return cases;
}

function respond(calc, cases) {
  return cases.map((entry) => {
    const start = performance.now();
    const onProgress = () => performance.now() - start < kNumericBudgetMs;
    return { ...entry, response: calc.compute(entry.request, { onProgress }) };
  });
}

// The generated request types give calibrate's `mechanism` its noise (the shared Mechanism type),
// but calibrate takes it without: the noise is the unknown. So that mechanism is asserted to be a
// Mechanism (an assertion still refuses an unknown type or field); every other field is checked.
function requestSource(request) {
  if (request.op !== 'calibrate' || request.mechanism === null || typeof request.mechanism !== 'object')
    return JSON.stringify(request);
  const placeholder = '"<mechanism without its noise>"';
  const withPlaceholder = JSON.stringify({ ...request, mechanism: JSON.parse(placeholder) });
  return withPlaceholder.replace(placeholder, `(${JSON.stringify(request.mechanism)} as Mechanism)`);
}

/** A TypeScript file that gives each response the type of `calc.compute(request)`; `lines[i]` is where case i starts. */
function typeCheckSource(cases, typesModule) {
  const text = [`import type { Calculator, Mechanism } from '${typesModule}';`, 'declare const calc: Calculator;'];
  const lines = [];
  for (const { label, request, response } of cases) {
    lines.push(text.length + 1);
    text.push(
      `// ${label.replaceAll('\n', ' ')}`,
      '{',
      `  const typed = calc.compute(${requestSource(request)});`,
      `  const returned: typeof typed = ${JSON.stringify(response)};`,
      '}',
    );
  }
  return { text: `${text.join('\n')}\n`, lines };
}

/**
 * tsc --strict --noEmit on `files`: { status, errors: [{ file, line, text }] }. Declaration files
 * are not checked themselves (tests/node/types.test.mjs does that for the shipped ones); checking
 * the DOM's would take most of the time.
 */
function typeCheck(files) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck'];
  const run = spawnSync(process.execPath, [tsc, ...args, ...files], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const errors = [];
  for (const line of run.stdout.split('\n')) {
    const match = line.match(/^(.+?)\((\d+),\d+\): error (.*)$/);
    if (match) errors.push({ file: path.resolve(root, match[1]), line: Number(match[2]), text: match[3] });
    else if (errors.length && line.startsWith(' ')) errors[errors.length - 1].text += `\n${line}`;
  }
  return { status: run.status, errors, output: run.stdout + run.stderr };
}

/** The case an error line of the generated file falls in. */
function caseAt(cases, lines, line) {
  let index = 0;
  while (index + 1 < lines.length && lines[index + 1] <= line) index += 1;
  return cases[index];
}

// Which signature of ComputeFunction a request selects, for the coverage report.
function signatureOf({ op, method, to, unknown, adversary, guarantee, delta, target }) {
  if (op === 'group') return guarantee ? 'group/guarantee' : 'group/mechanism';
  if (op === 'compose' && method === 'pld') return delta === undefined ? 'compose/pld/epsilon' : 'compose/pld/delta';
  if (op === 'dpsgd') return target ? 'dpsgd/target' : 'dpsgd/noise_multiplier';
  if (op === 'databases') return `databases/${method}/${adversary ?? 'worst_case'}`;
  if (op === 'calibrate') return `calibrate/${unknown}`;
  return [op, method ?? to].filter(Boolean).join('/');
}

let checked; // { cases, calc }, shared by the tests below

async function checkedCases() {
  if (!checked) {
    const calc = await loadCalculator();
    checked = { calc, cases: respond(calc, [...documentedRequests(), ...fuzzedRequests(calc)]) };
  }
  return checked;
}

test('every documented and fuzzed response has the type its request gives it (tsc --strict)', async (t) => {
  const { calc, cases } = await checkedCases();
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'responses.ts');
  const { text, lines } = typeCheckSource(cases, '../../dist/dpcalc.js');
  writeFileSync(file, text);
  const { status, errors, output } = typeCheck([file]);
  const report = errors
    .map((error) => {
      const { label, request } = error.file === file ? caseAt(cases, lines, error.line) : { label: error.file };
      return `${label}\n  ${JSON.stringify(request)?.slice(0, 300)}\n  ${error.text}`;
    })
    .join('\n');
  assert.equal(status, 0, report || output);

  const answered = new Map();
  for (const { request, response } of cases) {
    if (!response.ok) continue;
    const signature = signatureOf(request);
    answered.set(signature, (answered.get(signature) ?? 0) + 1);
  }
  t.diagnostic(`${cases.length} responses, ${[...answered.values()].reduce((a, b) => a + b, 0)} of them results`);
  t.diagnostic([...answered].map(([signature, count]) => `${signature}: ${count}`).join(', '));
  for (const { name } of calc.schema().ops) {
    const results = [...answered].filter(([signature]) => signature.split('/')[0] === name);
    assert.ok(results.length > 0, `op '${name}' has a result among the checked responses (document an example)`);
  }
});

// One field of each kind of result, each named in a response of the documented examples. Each mutant
// is a copy of dpcalc.d.ts without one of them; the documented responses that hold the field,
// checked against it, must fail on it.
const removedFields = [
  ['Result', 'citation'],
  ['GroupGuaranteeResult', 'power_of_two'],
  ['GroupGaussianNoiseResult', 'composition'],
  ['ComposeAdvancedResult', 'delta_slack'],
  ['PldEpsilonBracket', 'epsilon_upper'],
  ['PldDeltaResult', 'delta_lower'],
  ['ComposeRdpResult', 'order'],
  ['SplitBasicResult', 'achieved'],
  ['ProfileResult', 'delta_upper'],
  ['CalibrationSearch', 'evaluations'],
  ['DpsgdTraining', 'steps_per_epoch'],
  ['SamplerBoundsResult', 'status'],
  ['DpsgdForwardResult', 'noise_multiplier'],
  ['DpsgdPairResult', 'x'],
  ['RdpResult', 'epsilons'],
  ['Footprint', 'releases'],
  ['GroupwiseSimulateResult', 'seed'],
  ['GroupPrivacyEstimate', 'rho_estimate'],
  ['GroupwisePlanResult', 'expected_absolute_error'],
];

/** `types` without the one-line member `field` of `export interface <name>`. */
function withoutField(types, name, field) {
  const start = types.indexOf(`export interface ${name} `);
  assert.ok(start >= 0, `dpcalc.d.ts declares interface ${name}`);
  const end = types.indexOf('\n}\n', start) + 1;
  const member = new RegExp(`\\n  ${field}\\??: [^\\n]*;(?=\\n)`);
  const body = types.slice(start, end);
  assert.match(body, member, `interface ${name} has a one-line member ${field}`);
  return types.slice(0, start) + body.replace(member, '') + types.slice(end);
}

test('the check fails when a field is removed from a result type', async () => {
  const { cases } = await checkedCases();
  const documented = cases.filter(({ label }) => !label.startsWith('fuzz'));
  const types = readFileSync(path.join(root, 'dist', 'dpcalc.d.ts'), 'utf8');
  const mutantsDir = path.join(outDir, 'mutants');
  rmSync(mutantsDir, { recursive: true, force: true });
  const files = removedFields.map(([name, field]) => {
    const dir = path.join(mutantsDir, `${name}.${field}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'dpcalc.d.ts'), withoutField(types, name, field));
    const holding = documented.filter(({ response }) => JSON.stringify(response).includes(`"${field}":`));
    assert.ok(holding.length > 0, `a documented response holds '${field}'`);
    writeFileSync(path.join(dir, 'responses.ts'), typeCheckSource(holding, './dpcalc.js').text);
    return path.join(dir, 'responses.ts');
  });
  const { status, errors } = typeCheck(files);
  assert.notEqual(status, 0);
  removedFields.forEach(([name, field], i) => {
    // tsc quotes the key as written in the response: '"field"'.
    const named = errors.filter((error) => error.file === files[i] && error.text.includes(`'"${field}"'`));
    assert.ok(named.length > 0, `without ${name}.${field}, some documented response fails on '${field}'`);
  });
});
