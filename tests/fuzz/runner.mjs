// Runs a seeded fuzz campaign against the built JS API (dist/dpcalc.js) in a worker thread, so a
// request that hangs can be caught: compute() is synchronous, so the worker reports each request
// before computing it (and each progress report during it), and the main thread terminates it when
// `capMs` pass without either (a hang: counted, and the campaign goes on without that request).
// Numeric work is cancelled through onProgress after `budgetMs`. A request that the page runs in its
// closed-form lane (isNumeric of web/client.js is false) and that takes longer than `slowMs` is
// counted as `slow`: the page promises those an answer in about a second.
//   const stats = await runFuzz({ seed, requests, capMs, budgetMs, slowMs, ops });
// stats: { requests, ok, errors, cancelled, throws, nonFinite, beyondLimits, badField, badMessage, malformed, hangs, slow,
//          slowest: { ms, request }, examples: [{ kind, detail, request }], ops, skippedOps,
//          violationsBy: { 'compose/pld': n, group: n, ... },
//          memoryStart, memoryEnd: calc.memory() before and after }
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkResponse } from './check.mjs';
import { createGenerator, opTable, supportedOps } from './generator.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const distModule = pathToFileURL(path.join(dist, 'dpcalc.js')).href;
// The page's own rule for which requests run in the numeric worker (web/client.js).
const clientModule = pathToFileURL(path.join(dist, 'client.js')).href;
const maxExamples = 20;

function emptyStats() {
  return {
    requests: 0,
    ok: 0,
    errors: 0,
    cancelled: 0,
    throws: 0,
    nonFinite: 0,
    beyondLimits: 0,
    badField: 0,
    badMessage: 0,
    malformed: 0,
    hangs: 0,
    slow: 0,
    slowest: { ms: 0, request: null },
    examples: [],
    ops: [],
    skippedOps: [],
    violationsBy: {},
  };
}

// "compose/pld", "group", ...: where violations come from.
const family = (request) =>
  ['compose', 'calibrate', 'databases'].includes(request?.op)
    ? `${request.op}/${request.method}`
    : String(request?.op ?? 'non-object');

function record(stats, kind, detail, request) {
  stats[kind] += 1;
  const where = family(request);
  stats.violationsBy[where] = (stats.violationsBy[where] ?? 0) + 1;
  if (stats.examples.length < maxExamples)
    stats.examples.push({ kind, detail, request: JSON.stringify(request)?.slice(0, 600) });
}

const counters = [
  'requests',
  'ok',
  'errors',
  'cancelled',
  'throws',
  'nonFinite',
  'beyondLimits',
  'badField',
  'badMessage',
  'malformed',
  'hangs',
  'slow',
];

// The figures of two consecutive stretches of one campaign.
function merge(first, second) {
  const merged = { ...second };
  for (const key of counters) merged[key] = first[key] + second[key];
  merged.slowest = first.slowest.ms >= second.slowest.ms ? first.slowest : second.slowest;
  merged.examples = [...first.examples, ...second.examples].slice(0, maxExamples);
  merged.memoryStart = first.memoryStart ?? second.memoryStart;
  merged.violationsBy = { ...first.violationsBy };
  for (const [where, n] of Object.entries(second.violationsBy))
    merged.violationsBy[where] = (merged.violationsBy[where] ?? 0) + n;
  return merged;
}

// Requests `startIndex` .. `requests` − 1 of the campaign, leaving out those in `skip` (hung before).
async function workerMain({ seed, requests, numericShare, budgetMs, slowMs, only, startIndex, skip }) {
  const { createCalculator } = await import(distModule);
  const { isNumeric } = await import(clientModule);
  const calc = await createCalculator();
  const supported = supportedOps(calc);
  const ops = supported.filter((op) => !only || only.includes(op));
  const stats = emptyStats();
  stats.ops = ops;
  stats.skippedOps = Object.keys(opTable).filter((op) => !supported.includes(op));
  stats.memoryStart = calc.memory();
  const next = createGenerator(seed, { ops, numericShare, catalog: calc.schema().mechanisms });
  const skipped = new Set(skip);
  for (let i = 0; i < requests; ++i) {
    const request = next();
    const closedForm = !isNumeric(request);
    if (i < startIndex || skipped.has(i)) continue;
    parentPort.postMessage({
      type: 'start',
      index: i,
      family: family(request),
      request: JSON.stringify(request)?.slice(0, 600),
    });
    const start = performance.now();
    // Long numeric work must report progress (the page runs it in a worker with a cancel button):
    // each report is a heartbeat for the watchdog, and work past `budgetMs` is cancelled.
    const onProgress = () => {
      parentPort.postMessage({ type: 'beat' });
      return performance.now() - start < budgetMs;
    };
    let response;
    try {
      response = calc.compute(request, { onProgress });
    } catch (error) {
      record(stats, 'throws', String(error?.stack ?? error), request);
      continue;
    } finally {
      const ms = performance.now() - start;
      stats.requests += 1;
      if (closedForm && ms > slowMs) record(stats, 'slow', `${ms.toFixed(0)} ms in the closed-form lane`, request);
      if (ms > stats.slowest.ms) stats.slowest = { ms, request: JSON.stringify(request)?.slice(0, 600) };
    }
    if (response?.ok) stats.ok += 1;
    else if (response?.error?.code === 'cancelled') stats.cancelled += 1;
    else stats.errors += 1;
    for (const { kind, detail } of checkResponse(request, response)) record(stats, kind, detail, request);
    if ((i + 1) % 1000 === 0) parentPort.postMessage({ type: 'progress', stats, nextIndex: i + 1 });
  }
  stats.memoryEnd = calc.memory();
  parentPort.postMessage({ type: 'done', stats });
}

/**
 * See the header comment. `onProgress(stats)` is called about every `progressEvery` requests. A
 * request that hangs is counted (with an example), its worker is terminated, and the campaign goes
 * on in a fresh worker without it.
 */
export function runFuzz({
  seed = 1,
  requests = 1000,
  capMs = 20000,
  budgetMs = 3000,
  slowMs = 1000,
  numericShare = 0.02,
  ops: only,
  progressEvery = 0,
  onProgress,
} = {}) {
  return new Promise((resolve, reject) => {
    let done = emptyStats(); // figures of the workers that ended (terminated after a hang)
    const skip = [];
    let reported = 0;
    const startWorker = (startIndex) => {
      const worker = new Worker(fileURLToPath(import.meta.url), {
        workerData: { seed, requests, numericShare, budgetMs, slowMs, only, startIndex, skip },
      });
      let current = null;
      let latest = { stats: emptyStats(), nextIndex: startIndex };
      const watchdog = setInterval(() => {
        if (!current || performance.now() - current.since <= capMs) return;
        clearInterval(watchdog);
        worker.terminate();
        const hang = emptyStats();
        hang.hangs = 1;
        hang.violationsBy = { [current.family]: 1 };
        hang.examples = [
          {
            kind: 'hangs',
            detail: `no answer or progress for ${capMs} ms (request ${current.index})`,
            request: current.request,
          },
        ];
        done = merge(merge(done, latest.stats), hang);
        skip.push(current.index);
        startWorker(latest.nextIndex);
      }, 250);
      worker.on('message', (message) => {
        if (message.type === 'start') current = { ...message, since: performance.now() };
        else if (message.type === 'beat') current.since = performance.now();
        else if (message.type === 'progress') {
          latest = message;
          const total = merge(done, message.stats);
          if (progressEvery && total.requests - reported >= progressEvery) {
            reported = total.requests;
            onProgress?.(total);
          }
        } else if (message.type === 'done') {
          clearInterval(watchdog);
          worker.terminate();
          resolve(merge(done, message.stats));
        }
      });
      worker.on('error', (error) => {
        clearInterval(watchdog);
        reject(error);
      });
    };
    startWorker(0);
  });
}

if (!isMainThread && workerData?.seed !== undefined) await workerMain(workerData);
