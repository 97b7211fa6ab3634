// The Budget split section's requests, shared by the page (split-update.js) and the <dp-calculator>
// element: for the section's inputs (name → text, as its form and links hold them), one op 'split'
// per method, the largest per-step (ε₀, δ₀) whose composition over k steps meets the total target.
import { parseNumber } from './format.js';

const kMethods = [
  { id: 'basic', label: 'Basic composition', method: 'basic' },
  {
    id: 'advanced-drv',
    label: 'Advanced composition (Dwork–Rothblum–Vadhan)',
    method: 'advanced',
    variant: 'dwork_rothblum_vadhan',
  },
  { id: 'advanced-kov', label: 'Advanced composition (Kairouz–Oh–Viswanath)', method: 'advanced', variant: 'kairouz' },
  { id: 'optimal', label: 'Optimal composition (exact)', method: 'optimal' },
  { id: 'zcdp', label: 'zCDP composition', method: 'zcdp' },
];

// The input behind each request field (for marking errors).
const kFields = { 'target.epsilon': 'epsilon', 'target.delta': 'delta', count: 'count' };

/** The total target (ε, δ) of the inputs. */
export const targetOf = (inputs) => ({ epsilon: parseNumber(inputs.epsilon), delta: parseNumber(inputs.delta) });

/** One row per method: { id, role: 'row', label, request, fields }. */
export function requests(inputs) {
  const target = targetOf(inputs);
  const count = parseNumber(inputs.count);
  return kMethods.map(({ id, label, method, variant }) => ({
    id,
    role: 'row',
    label,
    request: variant ? { op: 'split', method, variant, target, count } : { op: 'split', method, target, count },
    fields: kFields,
  }));
}
