// Type-checked by tests/node/types.test.mjs (tsc --strict): requests of every op are accepted by the
// types of dist/dpcalc.d.ts, and the misspelt fields the calculator refuses are type errors too.
import { createCalculator, type Request, type Response } from '../../dist/dpcalc.js';

export const requests: Request[] = [
  { op: 'group', k: 8, guarantee: { type: 'approx', epsilon: 1, delta: 1e-6 } },
  { op: 'group', k: 4, delta: 1e-5, mechanism: { type: 'gaussian', sigma: 2, sensitivity: 1 } },
  { op: 'compose', method: 'basic', items: [{ guarantee: { type: 'pure', epsilon: 0.1 }, count: 10 }] },
  { op: 'compose', method: 'advanced', variant: 'dwork_rothblum_vadhan', delta: 1e-5, items: [] },
  {
    op: 'compose',
    method: 'pld',
    delta: 1e-5,
    discretization: { relative_accuracy: 1e-4 },
    items: [
      { mechanism: { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1 } }, count: 1000 },
    ],
  },
  { op: 'profile', items: [{ mechanism: { type: 'laplace', scale: 1 }, count: 3 }], epsilons: [0, 1] },
  { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6 },
  { op: 'split', method: 'advanced', target: { epsilon: 1, delta: 1e-5 }, count: 100 },
  { op: 'calibrate', mechanism: { type: 'gaussian' }, unknown: 'sigma', target: { epsilon: 1, delta: 1e-5 } },
  {
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    group_size: 5,
    steps: 1000,
    delta: 1e-5,
    noise_multiplier: 1,
  },
  {
    op: 'dpsgd',
    sampling: 'fixed_batch',
    dataset_size: 60000,
    batch_size: 256,
    group_size: 2,
    epochs: 1,
    delta: 1e-5,
    target: { epsilon: 3 },
  },
  { op: 'rdp', items: [{ mechanism: { type: 'gaussian', sigma: 1 }, count: 1 }] },
  {
    op: 'databases',
    method: 'basic',
    databases: [{ guarantee: { type: 'pure', epsilon: 1 }, count: 1000 }],
    constraint: { type: 'at_most', m: 365 },
  },
  { op: 'groupwise_simulate', rho: 0.5, relative_error: 0.01, count: 100, samples: 1000 },
  { op: 'groupwise_privacy', sigma: 1, relative_error: 0.01, counts: [10, 100] },
  { op: 'groupwise_plan', relative_error: 0.01, count: 100 },
];

export const misspelt: Request[] = [
  // @ts-expect-error: 'sensitivty' is not a field of a Laplace mechanism
  { op: 'group', k: 2, mechanism: { type: 'laplace', scale: 1, sensitivty: 2 } },
  // @ts-expect-error: a pure guarantee has no δ
  { op: 'group', k: 2, guarantee: { type: 'pure', epsilon: 1, delta: 0.1 } },
  // @ts-expect-error: variant applies to method 'advanced' only
  { op: 'compose', method: 'basic', variant: 'kairouz', items: [] },
  // @ts-expect-error: only calibration may leave a mechanism's noise out
  { op: 'compose', method: 'pld', items: [{ mechanism: { type: 'gaussian' }, count: 1 }] },
];

export async function first(): Promise<Response> {
  const calc = await createCalculator();
  const schema = calc.schema();
  return calc.compute(schema ? requests[0] : requests[1]);
}
