// npm run docs: rebuilds dist/ and rewrites the results of the examples in docs/API.md and README.md
// by running them, so the documents cannot drift from the calculator. An example is a line
//   calc.compute(<request as one-line JSON>)
// followed by its result as comment lines "// → …" (the response, JSON with two-space indents).
// It also rewrites the field tables between `<!-- fields:<shape> -->` markers from the request
// schema (scripts/field-tables.mjs). `node scripts/docs.mjs --check` (and tests/node/docs.test.mjs)
// only reports the stale ones.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from './install.mjs';
import { regenerateTables } from './field-tables.mjs';
import { regenerateRequestTypes } from './request-types.mjs';

export const documentedFiles = ['docs/API.md', 'README.md'];
const typesFile = 'web/dpcalc.d.ts';
const lanesFile = 'web/lanes.js';

/**
 * web/lanes.js from the schema's op table: the ops that run in the numeric lane, and the field values
 * that move a request of a closed-form op there (web/client.js isNumeric reads them).
 */
async function freshLanes(calc) {
  const prettier = await import('prettier');
  const full = path.join(repoRoot, lanesFile);
  const { ops } = calc.schema();
  const numericOps = ops.filter((op) => op.lane === 'numeric').map((op) => op.name);
  const numericWhen = Object.fromEntries(
    ops
      .filter((op) => op.lane !== 'numeric' && op.numeric_when.length > 0)
      .map((op) => [op.name, op.numeric_when.map(({ field, value }) => [field, value])]),
  );
  const text = [
    '// Which requests run in the numeric lane (a worker of their own, with progress and cancel): written',
    "// by `npm run docs` from the op table's lanes (core/src/api/op_table.cpp); do not edit.",
    `export const numericOps = ${JSON.stringify(numericOps)};`,
    '// A request of a closed-form op runs numeric when the field at a dotted path has the value.',
    `export const numericWhen = ${JSON.stringify(numericWhen)};`,
    '',
  ].join('\n');
  const options = { ...(await prettier.resolveConfig(full)), filepath: full };
  const formatted = await prettier.format(text, options);
  let current = '';
  try {
    current = readFileSync(full, 'utf8');
  } catch {
    // written below
  }
  return { full, formatted, stale: formatted !== current };
}

/** web/dpcalc.d.ts with its request types written from the schema, formatted as Prettier would. */
async function freshTypes(calc) {
  const prettier = await import('prettier');
  const full = path.join(repoRoot, typesFile);
  const current = readFileSync(full, 'utf8');
  const { text } = regenerateRequestTypes(current, calc.schema());
  const options = { ...(await prettier.resolveConfig(full)), filepath: full };
  const formatted = await prettier.format(text, options);
  return { full, formatted, stale: formatted !== current };
}
const kExample = /^calc\.compute\((\{.*\})\);?\s*$/;
const kResultPrefix = '// → ';
const kContinuationPrefix = '//   ';

function resultLines(response) {
  return JSON.stringify(response, null, 2)
    .split('\n')
    .map((line, i) => (i === 0 ? kResultPrefix : kContinuationPrefix) + line);
}

/** The request of every example of the documented files: [{ where: 'file:line', request }]. */
export function exampleRequests() {
  return documentedFiles.flatMap((file) =>
    readFileSync(path.join(repoRoot, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const match = line.match(kExample);
        return match ? [{ where: `${file}:${i + 1}`, request: JSON.parse(match[1]) }] : [];
      }),
  );
}

/** `text` with every example's result recomputed; `stale` lists the examples whose result changed. */
export function regenerate(text, calc, file) {
  const lines = text.split('\n');
  const output = [];
  const stale = [];
  for (let i = 0; i < lines.length; i++) {
    output.push(lines[i]);
    const match = lines[i].match(kExample);
    if (!match) continue;
    let request;
    try {
      request = JSON.parse(match[1]);
    } catch (error) {
      throw new Error(`${file}:${i + 1}: the request of an example must be one line of JSON (${error.message})`);
    }
    let end = i + 1;
    if (lines[end]?.startsWith(kResultPrefix.trimEnd())) {
      end += 1;
      while (end < lines.length && lines[end].startsWith('//')) end += 1;
    }
    const previous = lines.slice(i + 1, end);
    const fresh = resultLines(calc.compute(request));
    if (previous.join('\n') !== fresh.join('\n')) stale.push(`${file}:${i + 1}: ${match[1]}`);
    output.push(...fresh);
    i = end - 1;
  }
  const withExamples = output.join('\n');
  if (typeof calc.schema !== 'function') return { text: withExamples, stale };
  const tables = regenerateTables(withExamples, calc.schema(), file);
  return { text: tables.text, stale: [...stale, ...tables.stale] };
}

async function loadCalculator(distDir) {
  const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
  return createCalculator();
}

/** The examples whose documented result differs from what dist/ computes now. */
export async function staleExamples(distDir = path.join(repoRoot, 'dist')) {
  const calc = await loadCalculator(distDir);
  const stale = documentedFiles.flatMap(
    (file) => regenerate(readFileSync(path.join(repoRoot, file), 'utf8'), calc, file).stale,
  );
  if ((await freshTypes(calc)).stale) stale.push(`${typesFile}: request types`);
  if ((await freshLanes(calc)).stale) stale.push(`${lanesFile}: lanes`);
  return stale;
}

async function main() {
  const check = process.argv.includes('--check');
  let distDir = path.join(repoRoot, 'dist');
  if (!check) {
    const { ensureDependencies } = await import('./install.mjs');
    const { buildDist } = await import('./build.mjs');
    ensureDependencies();
    distDir = await buildDist();
  }
  const calc = await loadCalculator(distDir);
  let total = 0;
  for (const file of documentedFiles) {
    const full = path.join(repoRoot, file);
    const { text, stale } = regenerate(readFileSync(full, 'utf8'), calc, file);
    total += stale.length;
    for (const line of stale) console.log(`${check ? 'stale' : 'updated'}: ${line}`);
    if (!check) writeFileSync(full, text);
  }
  const types = await freshTypes(calc);
  if (types.stale) {
    total += 1;
    console.log(`${check ? 'stale' : 'updated'}: ${typesFile}: request types`);
    if (!check) writeFileSync(types.full, types.formatted);
  }
  const lanes = await freshLanes(calc);
  if (lanes.stale) {
    total += 1;
    console.log(`${check ? 'stale' : 'updated'}: ${lanesFile}: lanes`);
    if (!check) writeFileSync(lanes.full, lanes.formatted);
  }
  console.log(`${total} example result(s) ${check ? 'stale' : 'rewritten'}`);
  if (check && total > 0) process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
