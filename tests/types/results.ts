// Type-checked by tests/node/types.test.mjs (tsc --strict): the result type of `compute` and of the
// worker client's `run` follows from the request (its op, and the method or field that changes the
// result), a request typed only as `Request` still gets a response, and a misspelt field is still an
// error. That the types hold what the calculator returns is tests/node/result_types.test.mjs.
import type { AnyResult, Calculator, Mechanism, Request, Response } from '../../dist/dpcalc.js';
import type { WorkerCalculator } from '../../dist/client.js';

const gaussian: Mechanism = { type: 'gaussian', sigma: 2 };
const noiseless = { type: 'gaussian' } as Mechanism; // calibrate takes the mechanism without its noise

export function narrowed(calc: Calculator): number[] {
  const numbers: number[] = [];
  const group = calc.compute({ op: 'group', k: 4, guarantee: { type: 'rdp', orders: [2, 8], epsilons: [1, 2] } });
  if (group.ok) numbers.push(group.result.power_of_two ?? 1);
  // @ts-expect-error: a group of a guarantee has no mechanism-aware comparison
  if (group.ok) numbers.push(group.result.composition.rho);

  const pldEpsilon = calc.compute({
    op: 'compose',
    method: 'pld',
    delta: 1e-5,
    items: [{ mechanism: gaussian, count: 9 }],
  });
  // No finite ε (noise 0) is 'infinity'.
  if (pldEpsilon.ok && typeof pldEpsilon.result.epsilon_upper === 'number') {
    numbers.push(pldEpsilon.result.epsilon_upper);
  }
  // @ts-expect-error: with delta the answer is ε, not δ
  if (pldEpsilon.ok) numbers.push(pldEpsilon.result.delta_upper);
  const pldDelta = calc.compute({
    op: 'compose',
    method: 'pld',
    epsilon: 1,
    items: [{ mechanism: gaussian, count: 9 }],
  });
  if (pldDelta.ok) numbers.push(pldDelta.result.delta_upper);

  const advanced = calc.compute({ op: 'compose', method: 'advanced', delta: 1e-5, items: [] });
  if (advanced.ok) numbers.push(advanced.result.delta_slack, advanced.result.guarantee.delta);
  const basic = calc.compute({ op: 'compose', method: 'basic', items: [] });
  // @ts-expect-error: basic composition has no δ′
  if (basic.ok) numbers.push(basic.result.delta_slack);

  const toZcdp = calc.compute({ op: 'convert', guarantee: { type: 'pure', epsilon: 1 }, to: 'zcdp' });
  if (toZcdp.ok) numbers.push(toZcdp.result.guarantee.rho);

  const split = calc.compute({ op: 'split', method: 'zcdp', target: { epsilon: 1, delta: 1e-5 }, count: 10 });
  if (split.ok) numbers.push(split.result.rho_per_item, split.result.per_item.epsilon);
  const basicSplit = calc.compute({ op: 'split', method: 'basic', target: { epsilon: 1, delta: 0 }, count: 10 });
  // @ts-expect-error: a basic split has no ρ
  if (basicSplit.ok) numbers.push(basicSplit.result.rho_per_item);

  const target = { epsilon: 1, delta: 1e-5 };
  const multiplier = calc.compute({ op: 'calibrate', mechanism: noiseless, unknown: 'noise_multiplier', target });
  if (multiplier.ok) numbers.push(multiplier.result.noise_multiplier, multiplier.result.sigma);
  const sigma = calc.compute({ op: 'calibrate', mechanism: noiseless, unknown: 'sigma', target });
  // @ts-expect-error: the answer is under the name of the unknown
  if (sigma.ok) numbers.push(sigma.result.noise_multiplier);

  const setting = { sampling: 'poisson', sampling_rate: 0.01, group_size: 4, delta: 1e-5, steps: 100 } as const;
  const forward = calc.compute({ op: 'dpsgd', ...setting, noise_multiplier: 1 });
  if (forward.ok) numbers.push(forward.result.methods?.pld.epsilon ?? 0, forward.result.steps_per_epoch ?? 0);
  const calibration = calc.compute({ op: 'dpsgd', ...setting, target: { epsilon: 2 } });
  if (calibration.ok) numbers.push(calibration.result.rule_of_thumb.noise_multiplier);
  // @ts-expect-error: a calibration compares no methods
  if (calibration.ok) numbers.push(calibration.result.methods?.pld.epsilon ?? 0);

  const databases = [{ guarantee: { type: 'pure', epsilon: 0.1 } as const, count: 3 }];
  const worst = calc.compute({ op: 'databases', method: 'basic', databases });
  if (worst.ok) numbers.push(worst.result.parallel?.guarantee.epsilon ?? 0);
  const uninformative = calc.compute({
    op: 'databases',
    method: 'pld',
    delta: 1e-6,
    databases,
    adversary: 'uninformative',
  });
  if (uninformative.ok) {
    const exact: false = uninformative.result.exact;
    const { epsilon_upper: upper } = uninformative.result;
    const { epsilon_lower: lower } = uninformative.result.classic;
    numbers.push(Number(exact), Number(upper), Number(lower));
  }
  // @ts-expect-error: the uninformative adversary has no parallel composition
  if (uninformative.ok) numbers.push(uninformative.result.parallel.guarantee.epsilon);

  const tradeoff = calc.compute({ op: 'tradeoff', of: { op: 'group', k: 8, guarantee: { type: 'pure', epsilon: 1 } } });
  if (tradeoff.ok)
    numbers.push(tradeoff.result.advantage, tradeoff.result.curve.tpr[0], tradeoff.result.tpr_at_fpr[0].tpr);
  // @ts-expect-error: a trade-off's β is a list, one per α
  if (tradeoff.ok) numbers.push(tradeoff.result.beta + 1);
  return numbers;
}

export function anyRequest(calc: Calculator, request: Request): string {
  const response: Response<AnyResult> = calc.compute(request);
  if (!response.ok) return response.error.message;
  // Every result names its method, but the side-by-side of the samplers, whose rows each name theirs.
  const result = response.result;
  return 'rows' in result ? `${result.rows.length} samplers` : `${result.method} (${result.citation})`;
}

export async function later(client: WorkerCalculator): Promise<number> {
  const response = await client.run(
    { op: 'rdp', items: [{ mechanism: gaussian, count: 1 }] },
    { onProgress: () => {} },
  );
  const first = response.ok ? response.result.epsilons[0] : 0;
  // An ε that is infinite is the string 'infinity' (RenyiValue).
  return first === 'infinity' ? Infinity : first;
}

export function misspelt(calc: Calculator): void {
  // @ts-expect-error: 'sensitivty' is not a field of a Laplace mechanism, whichever signature is tried
  calc.compute({ op: 'group', k: 2, mechanism: { type: 'laplace', scale: 1, sensitivty: 2 } });
  // @ts-expect-error: 'discretisation' is not a field of a 'pld' composition
  calc.compute({ op: 'compose', method: 'pld', delta: 1e-5, items: [], discretisation: 0.01 });
}
