// The requests behind the page's first answers: the Group section, the page's default route, with its
// default inputs (web/app/group.js): one request per family its table compares (the headline's with
// the trade-off of its attacker panel, `explain`, beside which the panel asks op 'tradeoff' for one
// record), and its plots' (the same families at every group size from 1 to 16, the default
// "plot up to": the Gaussian's exact ε takes other code paths at some sizes), and the schema the page
// reads to build its forms. scripts/split-wasm.mjs keeps in dpcalc-first.wasm every function these
// run; tests/browser/first-answer.test.mjs checks that the page answers them from that part alone, so
// this list cannot fall behind the page unnoticed.
const approx = { type: 'approx', epsilon: 0.5, delta: 1e-6 };
const gaussian = { type: 'gaussian', sigma: 2, sensitivity: 1 };
const atGroupSize = (k) => [
  { op: 'group', k, guarantee: { type: 'pure', epsilon: 0.5 } },
  { op: 'group', k, guarantee: approx },
  { op: 'group', k, guarantee: { type: 'zcdp', rho: 0.125 } },
  { op: 'group', k, delta: 1e-5, mechanism: gaussian },
];
const kPlottedUpTo = 16;

// The table's requests at k = 4 are among the plots'.
export const firstAnswerRequests = [
  ...Array.from({ length: kPlottedUpTo }, (_, i) => atGroupSize(i + 1)).flat(),
  { op: 'group', k: 4, mechanism: { type: 'laplace', scale: 2, sensitivity: 1 } },
  { op: 'group', k: 4, guarantee: approx, explain: { fpr: [0.001, 0.01], prior: 0.5 } },
  { op: 'tradeoff', of: { op: 'group', k: 1, guarantee: approx }, fpr: [0.001, 0.01], prior: 0.5 },
];
