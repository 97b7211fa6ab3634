// The worker-backed twin of the JS API, for the page:
//   const calculator = createWorkerCalculator();
//   const response = await calculator.run(request, { onProgress, signal });
// Closed forms and numeric work run in separate workers, so a long numeric computation never delays
// an answer that takes microseconds. Cancelling terminates the worker that runs the request (the
// wasm cannot be interrupted otherwise) and starts a fresh one for whatever else is queued.

const isNumeric = (request) => request?.op === 'profile' || request?.method === 'pld'
  || String(request?.op).startsWith('groupwise_');

function abortError() {
  return new DOMException('The computation was cancelled.', 'AbortError');
}

class WorkerLane {
  constructor() {
    this.pending = new Map();
    this.worker = null;
  }

  start() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', (event) => {
      const { id, progress, response } = event.data;
      const job = this.pending.get(id);
      if (!job) return;
      if (response === undefined) {
        job.onProgress?.(progress);
        return;
      }
      this.pending.delete(id);
      job.resolve(response);
    });
    for (const [id, job] of this.pending) this.worker.postMessage({ id, request: job.request });
  }

  restart() {
    this.worker?.terminate();
    this.start();
  }

  run(id, request, { onProgress, signal } = {}) {
    if (signal?.aborted) return Promise.reject(abortError());
    if (!this.worker) this.start();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { request, resolve, onProgress });
      this.worker.postMessage({ id, request });
      signal?.addEventListener('abort', () => {
        if (!this.pending.delete(id)) return;
        reject(abortError());
        this.restart();
      }, { once: true });
    });
  }
}

/** Resolves requests in Web Workers; see the header comment. */
export function createWorkerCalculator() {
  const fastLane = new WorkerLane();
  const numericLane = new WorkerLane();
  let nextId = 0;
  return {
    run(request, options) {
      const lane = isNumeric(request) ? numericLane : fastLane;
      return lane.run(nextId++, request, options);
    },
  };
}
