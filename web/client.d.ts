// Types of the worker-backed twin of the JS API (client.js).
import type { ComputeFunction, Request } from './dpcalc.js';

export type { Request, Response } from './dpcalc.js';

export interface RunOptions {
  onProgress?: (fraction: number) => void;
  /** Aborting rejects with an AbortError and stops the work. */
  signal?: AbortSignal;
}

export interface WorkerCalculator {
  /** Where the calculator runs: in workers, or in the page where no worker can start. */
  ready: Promise<'worker' | 'page'>;
  /** The result type follows from the request, as for `compute` (see ComputeFunction). */
  run: ComputeFunction<RunOptions, true>;
}

/** `onFallback` is called once if the calculator has to run in the page (default: a note on the page). */
export function createWorkerCalculator(options?: { onFallback?: () => void }): WorkerCalculator;

/** True when `request` runs in the numeric lane (long work, with progress and cancel). */
export function isNumeric(request: Request): boolean;
