// Types of the JS API (dpcalc.js); the requests and results are described field by field in
// docs/API.md. Every ε, δ and ρ in a result is an upper bound unless its name ends in `_lower`.

export type Guarantee =
  | { type: 'pure'; epsilon: number }
  | { type: 'approx'; epsilon: number; delta: number }
  | { type: 'zcdp'; rho: number }
  | { type: 'rdp'; orders: number[]; epsilons: number[] };

export type Mechanism =
  | { type: 'laplace'; scale: number; sensitivity?: number }
  | { type: 'gaussian'; sigma: number; sensitivity?: number }
  | { type: 'poisson_subsampled'; rate: number; mechanism: Mechanism }
  | { type: 'gaussian_mixture'; sigma: number; shifts: number[]; weights: number[] };

/** One composed item: a guarantee or a mechanism, repeated `count` times (default 1). */
export type Item = ({ guarantee: Guarantee } | { mechanism: Mechanism }) & { count?: number };

/** Grid step, or its parts; see docs/API.md "method: 'pld'". */
export type Discretization = number | { interval?: number; relative_accuracy?: number; tail_mass_truncation?: number };

export type GroupRequest = { op: 'group'; k: number; delta?: number } & (
  { guarantee: Guarantee } | { mechanism: Mechanism }
);

export interface ComposeRequest {
  op: 'compose';
  method: 'basic' | 'parallel' | 'advanced' | 'optimal' | 'zcdp' | 'pld' | (string & {});
  items: Item[];
  variant?: 'dwork_rothblum_vadhan' | 'kairouz';
  delta?: number;
  delta_slack?: number;
  epsilon?: number;
  discretization?: Discretization;
}

export interface ProfileRequest {
  op: 'profile';
  items: Item[];
  epsilons: number[];
  discretization?: Discretization;
}

export interface ConvertRequest {
  op: 'convert';
  guarantee: Guarantee;
  to: 'approx' | 'zcdp';
  delta?: number;
  conversion?: string;
}

export interface SplitRequest {
  op: 'split';
  method: string;
  variant?: string;
  target: { epsilon: number; delta: number };
  count: number;
}

/** Ops added after these (calibrate, dpsgd, databases, groupwise_*: see docs/API.md) are plain objects. */
export interface OtherRequest {
  op: string;
  [field: string]: unknown;
}

export type Request = GroupRequest | ComposeRequest | ProfileRequest | ConvertRequest | SplitRequest | OtherRequest;

export interface Result {
  /** The theorem or method that produced the numbers, and where it is from. */
  method: string;
  citation: string;
  guarantee?: Guarantee;
  /** δ (or a probability) reached 1: no meaningful guarantee. */
  vacuous?: boolean;
  [field: string]: unknown;
}

export interface CalculatorError {
  code: 'invalid_argument' | 'unsupported' | 'numeric' | 'cancelled' | (string & {});
  /** Dotted path of the offending request field, e.g. `items.0.mechanism.sigma`; '' for the whole request. */
  field: string;
  /** A sentence a person can act on. */
  message: string;
}

export type Response = { ok: true; result: Result } | { ok: false; error: CalculatorError };

export interface ComputeOptions {
  /** Called with the fraction done during numeric work; returning `false` cancels it. */
  onProgress?: (fraction: number) => boolean | void;
}

export interface Calculator {
  /** Synchronous; never throws. */
  compute(request: Request, options?: ComputeOptions): Response;
  /** Size of the wasm linear memory in bytes (it only grows). */
  memoryBytes(): number;
}

/** Loads dpcalc.wasm (next to dpcalc.js, or the compiled `wasmModule`). */
export function createCalculator(options?: { wasmModule?: WebAssembly.Module }): Promise<Calculator>;
