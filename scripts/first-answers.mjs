// The requests behind the page's first answers: the Group section, the page's default route, with its
// default inputs (web/app/group.js: one request per family it compares, the trade-off of the attacker
// panel) and the schema the page reads to build its forms. scripts/split-wasm.mjs keeps in
// dpcalc-first.wasm every function these run; tests/browser/first-answer.test.mjs checks that the page
// answers its first requests from that part alone, so this list cannot fall behind the page unnoticed.
const k = 4;
const approx = { type: 'approx', epsilon: 0.5, delta: 1e-6 };

export const firstAnswerRequests = [
  { op: 'group', k, guarantee: { type: 'pure', epsilon: 0.5 } },
  { op: 'group', k, guarantee: approx },
  { op: 'group', k, guarantee: { type: 'zcdp', rho: 0.125 } },
  { op: 'group', k, mechanism: { type: 'laplace', scale: 2, sensitivity: 1 } },
  { op: 'group', k, delta: 1e-5, mechanism: { type: 'gaussian', sigma: 2, sensitivity: 1 } },
  { op: 'tradeoff', of: { op: 'group', k, guarantee: approx }, fpr: [0.001], prior: 0.5 },
];
