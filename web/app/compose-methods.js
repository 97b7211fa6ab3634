// The composition methods of op 'compose' as the page's sections ask them (Composition, DP k-means,
// the "most releases" question): each method's id (also its chart style, chart.js), its label, the
// name of its formula in formula.js, and its request for releases `items` ([{ …item, count }]) at
// total δ target `delta`. No DOM here: the <dp-calculator> element builds the same requests.

export const compositionMethods = [
  {
    id: 'basic',
    label: 'Basic composition',
    formula: 'basic',
    request: (items) => ({ op: 'compose', method: 'basic', items }),
  },
  {
    id: 'parallel',
    label: 'Parallel composition (disjoint records only)',
    formula: 'parallel',
    request: (items) => ({ op: 'compose', method: 'parallel', items }),
  },
  {
    id: 'advanced-drv',
    label: 'Advanced composition (Dwork–Rothblum–Vadhan)',
    formula: 'advancedDrv',
    request: (items, delta) => ({ op: 'compose', method: 'advanced', variant: 'dwork_rothblum_vadhan', delta, items }),
  },
  {
    id: 'advanced-kov',
    label: 'Advanced composition (Kairouz–Oh–Viswanath)',
    formula: 'advancedKov',
    request: (items, delta) => ({ op: 'compose', method: 'advanced', variant: 'kairouz', delta, items }),
  },
  {
    id: 'optimal',
    label: 'Optimal composition (exact)',
    formula: 'optimal',
    request: (items, delta) => ({ op: 'compose', method: 'optimal', delta, items }),
  },
  {
    id: 'zcdp',
    label: 'zCDP composition',
    formula: 'zcdp',
    request: (items, delta) => ({ op: 'compose', method: 'zcdp', delta, items }),
  },
  {
    id: 'rdp',
    label: 'Rényi DP composition',
    formula: 'rdp',
    request: (items, delta) => ({ op: 'compose', method: 'rdp', delta, items }),
  },
];

/** The (ε, δ) a composition result promises: zCDP results carry it in `approx`. */
export const approxOf = (result) => result.approx ?? result.guarantee;

/** A pure item when δ₀ is exactly 0 (so zCDP composition applies), an approximate one otherwise. */
export function itemOf(epsilon, delta) {
  return { guarantee: delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta } };
}
