// The Group-wise relative error section's requests, shared by the page (groupwise-update.js) and the
// <dp-calculator> element: for Algorithm 1 of Pujol & Desfontaines (2023), the proven guarantee and
// the core's numerical estimate for each group size (op 'groupwise_privacy'), and simulated outputs
// for the group shown (op 'groupwise_simulate'). Both are numeric.
import { parseNumber } from './format.js';

export const kMaxGroups = 19; // the API takes 20 counts; one more is the group of the D_α plot

/** "10, 100, 1e3" → [10, 100, 1000], or null when any entry is not a number or there are too many. */
export function countsOf(inputs) {
  const parts = inputs.counts.split(/[\s,;]+/).filter((part) => part.length > 0);
  const counts = parts.map((part) => parseNumber(part));
  const valid = parts.length > 0 && counts.every((count) => Number.isFinite(count)) && counts.length <= kMaxGroups;
  return valid ? counts : null;
}

/**
 * The privacy request (id 'privacy', role 'row': every group size and the group shown, `group`) and
 * the simulation (id 'simulate', role 'plot'); none when the group sizes cannot be read.
 */
export function requests(inputs) {
  const counts = countsOf(inputs);
  if (!counts) return [];
  const rho = parseNumber(inputs.rho);
  const r = parseNumber(inputs.relative_error);
  const group = parseNumber(inputs.group);
  const delta = inputs.delta.trim() === '' ? undefined : parseNumber(inputs.delta);
  const privacy = { op: 'groupwise_privacy', rho, relative_error: r, counts: [...new Set([...counts, group])], delta };
  const simulate = {
    op: 'groupwise_simulate',
    rho,
    relative_error: r,
    count: group,
    samples: parseNumber(inputs.samples),
    seed: parseNumber(inputs.seed),
    bins: 80,
  };
  return [
    { id: 'privacy', role: 'row', label: `Group of ${inputs.group.trim()}`, group, counts, request: privacy },
    { id: 'simulate', role: 'plot', request: simulate },
  ];
}
