// The worker-backed twin of the JS API, for the page:
//   const calculator = createWorkerCalculator();
//   const response = await calculator.run(request, { onProgress, signal });
// Closed forms and numeric work run in separate workers, so a long numeric computation never delays
// an answer that takes microseconds. The wasm module comes in two parts (scripts/split-wasm.mjs):
// dpcalc-first.wasm holds what the page's first answers run, dpcalc-rest.wasm everything else. Each
// is fetched and compiled once, here, and the compiled WebAssembly.Modules are posted to each worker.
// Starting a worker takes a few hundred milliseconds on a cold load, so until the closed-form worker
// is up the page answers closed forms itself, from the first part alone (they take microseconds): the
// first results wait neither for a worker nor for the rest, which is fetched only after them. A
// request that needs the rest before the worker is up waits for the worker. A link to another
// section than the default one answers from the rest too: boot.js then fetches both parts at once,
// and the page answers its closed forms from the two linked.
// Cancelling terminates the worker that runs the request (the wasm cannot be interrupted otherwise)
// and starts a fresh one for whatever else is queued.
// Where no worker can start (a page opened from file:// in Firefox, a sandboxed frame on a host that
// blocks blob: workers), the calculator runs in the page itself and `onFallback` is told once.
import { fetchWasm, splitWasm, startedWasm, workerScript } from './assets.js';
import { compiledWasm, createCalculator } from './dpcalc.js';
import { numericOps, numericWhen } from './lanes.js';

const valueAt = (request, path) => path.split('.').reduce((value, key) => value?.[key], request);

/**
 * True when `request` goes to the numeric lane (it may take long and shows progress): its op's lane,
 * or a field value that moves it there, as the op table says (lanes.js, written from the schema).
 */
export function isNumeric(request) {
  if (numericOps.includes(request?.op)) return true;
  return (numericWhen[request?.op] ?? []).some(([path, value]) => valueAt(request, path) === value);
}

function abortError() {
  return new DOMException('The computation was cancelled.', 'AbortError');
}

/** A part of the wasm module ('first' or 'rest') compiled here; null when that fails. */
function compileWasm(part) {
  return (startedWasm(part) ?? Promise.resolve(null))
    .then(
      (started) =>
        started ??
        fetchWasm(part).then((response) => {
          if (!response.ok) throw new Error(`dpcalc-${part}.wasm: HTTP ${response.status}`);
          const streams =
            typeof WebAssembly.compileStreaming === 'function' &&
            (response.headers.get('content-type') ?? '').startsWith('application/wasm');
          return streams
            ? WebAssembly.compileStreaming(response)
            : response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
        }),
    )
    .then((module) => {
      performance.mark(`dpcalc:wasm-${part}-compiled`);
      return module;
    })
    .catch(() => null);
}

/**
 * createCalculator's options for the compiled parts ({ first, rest }: Promises of a WebAssembly.Module
 * or null; `whole`: `first` is the whole dpcalc.wasm, with no rest): both parts linked, the whole
 * module, or {} (the whole dpcalc.wasm, loaded where it runs) when one failed.
 */
const linkedParts = ({ first, rest, whole = false }) =>
  Promise.all([first, rest]).then(([wasmModule, deferredModule]) => {
    if (whole) return wasmModule ? { wasmModule } : {};
    return wasmModule && deferredModule ? { wasmModule, deferredModule } : {};
  });

/** Ways to start the worker, tried in order. */
function workerFactories() {
  const { url, type } = workerScript();
  const factories = [() => new Worker(url, { type })];
  // A page on another origin (an embedding host, a sandboxed frame) may not start a worker from this
  // origin's URL, but it may start one from its own blob: URL that imports the script.
  const foreign = typeof location === 'object' && new URL(url, location.href).origin !== location.origin;
  if (foreign && type === 'module') {
    const shim = new Blob([`import ${JSON.stringify(String(url))};`], { type: 'text/javascript' });
    factories.push(() => new Worker(URL.createObjectURL(shim), { type }));
  }
  return factories;
}

/**
 * Starts a worker and hands it the compiled parts of the module ({ first, rest }: Promises of a
 * WebAssembly.Module or null); resolves once it has instantiated the wasm.
 */
function startWorker(create, parts) {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = create();
    } catch (error) {
      reject(error);
      return;
    }
    const onError = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new Error(event.message || 'The worker script could not be loaded.'));
    };
    const onMessage = (event) => {
      worker.removeEventListener('error', onError);
      worker.removeEventListener('message', onMessage);
      if (event.data.ready) {
        performance.mark('dpcalc:worker-ready');
        resolve(worker);
      } else {
        worker.terminate();
        reject(new Error(event.data.failed));
      }
    };
    worker.addEventListener('error', onError);
    worker.addEventListener('message', onMessage);
    linkedParts(parts).then((options) => worker.postMessage({ wasmModule: null, ...options }));
  });
}

/** The note shown where the calculator has to run in the page. */
function showFallbackNote() {
  if (typeof document !== 'object' || !document.body) return;
  const note = document.createElement('p');
  note.className = 'notice runtime-note';
  note.setAttribute('role', 'status');
  note.textContent =
    'This browser does not let the page start a background worker here (a page opened from a ' +
    'file, or a sandboxed frame), so the calculator runs in the page itself: the results are the same, but a ' +
    'long numeric computation holds the page until it ends and cannot be cancelled.';
  (document.querySelector('main') ?? document.body).prepend(note);
}

/**
 * One queue of requests, answered by one worker (or by the page when no worker can start).
 * `stopgap`: a Promise of a calculator in the page (or of null) that answers while the first worker
 * starts, whichever is ready first; dropped once the worker is up.
 */
class Lane {
  constructor(engine, { stopgap = null } = {}) {
    this.engine = engine;
    this.pending = new Map();
    this.worker = null; // Promise<Worker | null>
    this.stopgap = stopgap;
  }

  /** Starts the lane's worker (once `after` has settled, when given). */
  start(after) {
    this.worker = Promise.resolve(after)
      .then(() => this.engine.spawn())
      .then((worker) => {
        worker?.addEventListener('message', (event) => this.receive(event.data));
        this.stopgap = null;
        return worker;
      });
  }

  /** Resolves to where the next request runs: { worker } (null: in the page) or { calculator }. */
  runner() {
    const worker = this.worker.then((started) => ({ worker: started }));
    if (!this.stopgap) return worker;
    return Promise.race([worker, this.stopgap.then((calculator) => (calculator ? { calculator } : worker))]);
  }

  receive({ id, progress, response }) {
    const job = this.pending.get(id);
    if (!job) return;
    if (response === undefined) {
      job.onProgress?.(progress);
      return;
    }
    this.pending.delete(id);
    job.resolve(response);
  }

  send(id, job) {
    const current = this.worker;
    this.runner().then(({ worker, calculator }) => {
      // After a restart the job is sent again, to the new worker.
      if (this.worker !== current || !this.pending.has(id)) return;
      if (calculator) {
        // The stopgap was dropped since this job was handed to it (the worker is up, or it missed).
        if (!this.stopgap) return this.send(id, job);
        const response = calculator.compute(job.request);
        if (response.error?.code === 'not_loaded') {
          // The first part of the module lacks this request's code: it, and every later request, waits
          // for the worker, which has both parts. The mark names the op (tests/browser/first-answer).
          performance.mark('dpcalc:first-part-missed', { detail: job.request.op });
          this.stopgap = null;
          return this.send(id, job);
        }
        this.pending.delete(id);
        job.resolve(response);
      } else if (worker) worker.postMessage({ id, request: job.request });
      else this.runInPage(id, job);
    });
  }

  async runInPage(id, job) {
    let calculator;
    try {
      calculator = await this.engine.pageCalculator();
    } catch (error) {
      this.pending.delete(id);
      job.resolve({
        ok: false,
        error: { code: 'internal', field: '', message: `The calculator could not start: ${error?.message ?? error}` },
      });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 0)); // lets the page paint "busy" first
    if (!this.pending.has(id)) return;
    const response = calculator.compute(job.request, {
      onProgress: (fraction) => {
        job.onProgress?.(fraction);
        return this.pending.has(id);
      },
    });
    if (this.pending.delete(id)) job.resolve(response);
  }

  restart() {
    this.worker?.then((worker) => worker?.terminate());
    this.start();
    for (const [id, job] of this.pending) this.send(id, job);
  }

  run(id, request, { onProgress, signal } = {}) {
    if (signal?.aborted) return Promise.reject(abortError());
    if (!this.worker) this.start();
    return new Promise((resolve, reject) => {
      const job = { request, resolve, onProgress };
      this.pending.set(id, job);
      this.send(id, job);
      signal?.addEventListener(
        'abort',
        () => {
          if (!this.pending.delete(id)) return;
          reject(abortError());
          this.restart();
        },
        { once: true },
      );
    });
  }
}

/**
 * Resolves requests in Web Workers; see the header comment. `ready` resolves to 'worker' or 'page'
 * (where the calculator runs) once the first lane has started.
 */
export function createWorkerCalculator({ onFallback = showFallbackNote } = {}) {
  // The element loads the whole module, as the JS API does (web/embed/assets.js).
  const whole = !splitWasm;
  const first = whole ? compiledWasm().catch(() => null) : compileWasm('first');
  // Fetched when a worker or the page first needs it, after the first answers; at once when boot.js
  // started it (a link to another section).
  let rest = whole ? Promise.resolve(null) : startedWasm('rest') ? compileWasm('rest') : null;
  const parts = () => ({ first, rest: (rest ??= compileWasm('rest')), whole });
  const factories = workerFactories();
  let firstWorking = 0; // factories before this one failed
  let inPage = null;
  let toldFallback = false;
  const engine = {
    async spawn() {
      for (; firstWorking < factories.length; firstWorking++) {
        try {
          return await startWorker(factories[firstWorking], parts());
        } catch {
          // try the next way
        }
      }
      // Said as soon as it is known, even when the stopgap has already answered everything asked.
      if (!toldFallback) onFallback?.();
      toldFallback = true;
      return null;
    },
    pageCalculator() {
      inPage ??= linkedParts(parts()).then(createCalculator);
      return inPage;
    },
  };
  // The stopgap of the closed-form lane: the JS API in the page, on the module's first part alone, or
  // on both parts when the rest came at once.
  const stopgap = Promise.all([first, rest])
    .then(([module, deferredModule]) =>
      module ? createCalculator({ wasmModule: module, ...(deferredModule && { deferredModule }) }) : null,
    )
    .then(
      (calculator) => {
        performance.mark('dpcalc:page-calculator-ready');
        return calculator;
      },
      () => null,
    );
  const fastLane = new Lane(engine, { stopgap });
  const numericLane = new Lane(engine);
  // The closed-form worker starts once the stopgap has given the first answers (and the page has
  // shown them): starting a worker takes processor time that they would otherwise wait for.
  fastLane.start(stopgap.then(() => new Promise((resolve) => setTimeout(resolve))));
  let nextId = 0;
  return {
    ready: fastLane.worker.then((worker) => (worker ? 'worker' : 'page')),
    run(request, options) {
      const lane = isNumeric(request) ? numericLane : fastLane;
      return lane.run(nextId++, request, options);
    },
    /** Resolves to the calculator's schema() (its ops, request shapes and mechanism catalog). */
    schema: () =>
      stopgap.then((calculator) => calculator?.schema() ?? engine.pageCalculator().then((inPage) => inPage.schema())),
  };
}
