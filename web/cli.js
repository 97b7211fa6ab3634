#!/usr/bin/env node
// The command line (the npm package's `dpcalc` bin): one request in, its answer out.
//   npx dpcalc '{"op": "group", "k": 8, "guarantee": {"type": "pure", "epsilon": 1}}'
//   echo '{"op": …}' | npx dpcalc
//   npx dpcalc dpsgd --sampling poisson --dataset-size 50000 --batch-size 256 --epochs 30 \
//     --noise-multiplier 1.1 --delta 1e-5 --group-size 4
//   npx dpcalc group --k 4 --mechanism.type gaussian --mechanism.sigma 2 --delta 1e-5 --json
// Flags are the request's own fields: kebab-case for snake_case, dots for nested fields (a number
// for a list's element: --items.0.count 3), values read as JSON where they are JSON (numbers,
// true/false, lists) and as text otherwise; they are set over a JSON request when both are given.
// It prints the answer in one line with its method and citation (`--json`: the response as the JS
// API returns it) and exits with 1 when the request is refused, saying which field and why, and
// with 2 when the command line itself cannot be read. The answers are the JS API's (dpcalc.js).
import { readFileSync } from 'node:fs';
import { createCalculator } from './dpcalc.js';
import { answerText } from './app/answer-text.js';

const kUsage = `Usage: dpcalc [op] [request JSON | -] [--field value …] [--json]
  op            the request's op (group, compose, dpsgd, …), when the JSON does not give it
  request JSON  the whole request, as docs/API.md writes it; - (or nothing, with input piped) reads it from stdin
  --field value a field of the request: --noise-multiplier 1.1 for noise_multiplier,
                --mechanism.sigma 2 for a nested field, --items.0.count 3 for a list's element
  --json        print the response ({ ok, result } or { ok: false, error }) as JSON
  --help        this text`;

class UsageError extends Error {}

/** `text` as a flag's value: JSON where it is JSON (1e-5, true, [2, 4]), else the text itself. */
function flagValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sets `value` at dotted `path` of `request`, making objects (or lists, for a number) on the way. */
function setAt(request, path, value) {
  const keys = path.split('.');
  let node = request;
  keys.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    node = node[key];
  });
  node[keys.at(-1)] = value;
}

/** The request and options of `args` (the command line after the script). */
function readCommandLine(args, readStdin) {
  const flags = [];
  const positional = [];
  let json = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h') return { help: true };
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s);
      const next = args[i + 1];
      const value = inline ?? (next === undefined || next.startsWith('--') ? 'true' : args[(i += 1)]);
      flags.push([name.replaceAll('-', '_'), flagValue(value)]);
    } else positional.push(arg);
  }
  let request = {};
  const [first, ...rest] = positional;
  const op = first !== undefined && /^[a-z_]+$/.test(first) ? first : undefined;
  const sources = op === undefined ? positional : rest;
  if (sources.length > 1) throw new UsageError(`Give one request (got ${sources.length}: ${sources.join(' ')}).`);
  const piped = sources.length === 0 && flags.length === 0 && op === undefined;
  if (piped && process.stdin.isTTY) return { help: true };
  const text = sources[0] === '-' || piped ? readStdin() : sources[0];
  if (text !== undefined) {
    try {
      request = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`The request is not JSON: ${error.message}`);
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request))
      throw new UsageError('The request must be a JSON object, e.g. {"op": "group", …}.');
  }
  if (op !== undefined) request = { op, ...request };
  for (const [path, value] of flags) setAt(request, path, value);
  return { request, json, flags: flags.map(([path]) => path) };
}

/** The flag that set `field` (a dotted path), for an error message: "--noise-multiplier". */
const flagOf = (field, flags) => (flags.includes(field) ? ` (--${field.replaceAll('_', '-')})` : '');

/** The lines to print for `response`: the answer and its source, or the error. */
function responseLines(request, response, flags = []) {
  if (!response.ok) {
    const { code, field, message } = response.error;
    return { out: '', err: `dpcalc: ${code}${field ? ` at ${field}${flagOf(field, flags)}` : ''}: ${message}` };
  }
  const { result } = response;
  const source = result.citation ? `${result.method} (${result.citation})` : (result.method ?? '');
  const answer = answerText(result, request, { full: true });
  // An answer with no number to say is its method (dpsgd_pair: the pair itself is the answer).
  if (answer === result.method) return { out: source, err: '' };
  return { out: `${answer}${source ? ` — ${source}` : ''}`, err: '' };
}

async function main() {
  let parsed;
  try {
    parsed = readCommandLine(process.argv.slice(2), () => readFileSync(0, 'utf8'));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`dpcalc: ${error.message}\n${kUsage}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${kUsage}\n`);
    return 0;
  }
  const calculator = await createCalculator();
  const response = calculator.compute(parsed.request);
  if (parsed.json) process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
  const { out, err } = responseLines(parsed.request, response, parsed.flags);
  if (!parsed.json && out) process.stdout.write(`${out}\n`);
  if (err) process.stderr.write(`${err}\n`);
  return response.ok ? 0 : 1;
}

process.exitCode = await main();
