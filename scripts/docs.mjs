// npm run docs: rebuilds dist/ and rewrites the results of the examples in docs/API.md and README.md
// by running them, so the documents cannot drift from the calculator. An example is a line
//   calc.compute(<request as one-line JSON>)
// followed by its result as comment lines "// → …" (the response, JSON with two-space indents).
// `node scripts/docs.mjs --check` (and tests/node/docs.test.mjs) only reports the stale ones.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from './install.mjs';

export const documentedFiles = ['docs/API.md', 'README.md'];
const kExample = /^calc\.compute\((\{.*\})\);?\s*$/;
const kResultPrefix = '// → ';
const kContinuationPrefix = '//   ';

function resultLines(response) {
  return JSON.stringify(response, null, 2)
    .split('\n')
    .map((line, i) => (i === 0 ? kResultPrefix : kContinuationPrefix) + line);
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
  return { text: output.join('\n'), stale };
}

async function loadCalculator(distDir) {
  const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
  return createCalculator();
}

/** The examples whose documented result differs from what dist/ computes now. */
export async function staleExamples(distDir = path.join(repoRoot, 'dist')) {
  const calc = await loadCalculator(distDir);
  return documentedFiles.flatMap(
    (file) => regenerate(readFileSync(path.join(repoRoot, file), 'utf8'), calc, file).stale,
  );
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
  console.log(`${total} example result(s) ${check ? 'stale' : 'rewritten'}`);
  if (check && total > 0) process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
