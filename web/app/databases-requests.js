// The Several databases section's requests, shared by the page (databases-update.js) and the
// <dp-calculator> element: releases on classes of identical databases, the footprints a person can
// have (at most m databases, exactly one, families of classes), unbounded or bounded neighbours, and
// an adversary with an uninformative prior, each composed by the chosen method (op 'databases').
import { parseNumber } from './format.js';

const kClasses = ['a', 'b', 'c'];
const kMethods = {
  basic: { method: 'basic' },
  advanced_kov: { method: 'advanced', variant: 'kairouz' },
  advanced_drv: { method: 'advanced', variant: 'dwork_rothblum_vadhan' },
  optimal: { method: 'optimal' },
  zcdp: { method: 'zcdp' },
  pld: { method: 'pld' },
};

const kLabels = {
  classic: 'Classic composition (every release)',
  unbounded: 'Constrained, unbounded (record present or absent)',
  bounded: 'Constrained, bounded (record replaced)',
  uninformative: 'Uninformative prior (in none vs. in at least one)',
  pureUnbounded: 'Constrained, unbounded, basic composition (pure)',
  pureBounded: 'Constrained, bounded, basic composition (pure)',
  pureUninformative: 'Uninformative prior, basic composition (pure)',
};

/** The classes the inputs describe (class 1 always, the others when their count is not 0). */
export function classesOf(inputs) {
  const classes = [];
  for (const [shown, prefix] of kClasses.entries()) {
    const text = (name) => inputs[`${prefix}_${name}`];
    const number = (name) => parseNumber(text(name));
    const count = number('count');
    if (count === 0 && prefix !== 'a') continue;
    const kind = text('kind');
    const release =
      kind === 'guarantee'
        ? {
            guarantee:
              number('delta') === 0
                ? { type: 'pure', epsilon: number('epsilon') }
                : { type: 'approx', epsilon: number('epsilon'), delta: number('delta') },
          }
        : {
            mechanism:
              kind === 'laplace'
                ? { type: 'laplace', scale: number('scale') }
                : { type: 'gaussian', sigma: number('sigma') },
          };
    classes.push({ shown: shown + 1, prefix, request: { ...release, count, queries: number('queries') } });
  }
  return classes;
}

/** "1+2, 1+3" (class numbers as shown) → [[0, 1], [0, 2]] (request indices); unknown numbers stay out of range. */
function familiesOf(text, classes) {
  const index = new Map(classes.map((item, i) => [item.shown, i]));
  return text
    .split(/[,;]/)
    .map((family) => family.trim())
    .filter(Boolean)
    .map((family) => family.split('+').map((number) => index.get(Number(number.trim())) ?? 99));
}

function constraintOf(inputs, classes) {
  const type = inputs.constraint;
  if (type === 'at_most') return { type, m: parseNumber(inputs.m) };
  if (type === 'families') return { type, families: familiesOf(inputs.families, classes) };
  return { type };
}

/** The input behind each request field. */
function fieldsOf(classes, constraint) {
  const fields = {
    delta: 'delta',
    'constraint.m': 'm',
    constraint: 'constraint',
    'constraint.families': 'families',
    adversary: 'adversary',
  };
  classes.forEach(({ prefix }, index) => {
    const path = `databases.${index}`;
    for (const [field, name] of [
      ['count', 'count'],
      ['queries', 'queries'],
      ['guarantee.epsilon', 'epsilon'],
      ['guarantee.delta', 'delta'],
      ['mechanism.scale', 'scale'],
      ['mechanism.sigma', 'sigma'],
      ['mechanism', 'kind'],
      ['guarantee.type', 'kind'],
    ])
      fields[`${path}.${field}`] = `${prefix}_${name}`;
  });
  for (const [i, family] of (constraint.families ?? []).entries()) {
    fields[`constraint.families.${i}`] = 'families';
    family.forEach((_, j) => {
      fields[`constraint.families.${i}.${j}`] = 'families';
    });
  }
  return fields;
}

/** m values to plot: 1 … the number of databases, about `points` of them, log-spaced. */
function logRange(upTo, points) {
  const values = new Set([1, upTo]);
  for (let i = 1; i < points - 1; i += 1) values.add(Math.max(1, Math.round(upTo ** (i / (points - 1)))));
  return [...values].sort((a, b) => a - b);
}

/** Whether every release is pure (then basic composition gives a pure answer, which the headline gives first). */
export const isPure = (classes) =>
  classes.every((item) => item.request.guarantee?.type === 'pure' || item.request.mechanism?.type === 'laplace');

/** The total number of databases. */
export const totalOf = (classes) =>
  classes.reduce((sum, item) => sum + (Number.isFinite(item.request.count) ? item.request.count : 0), 0);

/** The plots' requests: ε against m (unbounded and bounded), and against n databases of class 1. */
function plotItems(base, classes, numeric) {
  const total = totalOf(classes);
  const mValues = total >= 2 ? logRange(Math.min(total, 1e6), numeric ? 6 : 16) : [];
  const first = classes[0].request;
  const nValues = logRange(
    Math.max(2, Math.min(Number.isFinite(first.count) ? first.count : 2, 1e6)),
    numeric ? 6 : 16,
  );
  const single = (n) => ({ ...base, databases: [{ ...first, count: n }], constraint: { type: 'none' } });
  const m = mValues.flatMap((x) =>
    ['unbounded', 'bounded'].map((neighbours) => ({
      id: `m-${neighbours}-${x}`,
      role: 'plot-m',
      x,
      neighbours,
      request: { ...base, constraint: { type: 'at_most', m: x }, neighbours },
    })),
  );
  const n = nValues.flatMap((x) => [
    { id: `n-worst-${x}`, role: 'plot-n', x, adversary: 'worst_case', request: single(x) },
    {
      id: `n-uninformative-${x}`,
      role: 'plot-n',
      x,
      adversary: 'uninformative',
      request: { ...single(x), adversary: 'uninformative' },
    },
  ]);
  return [...m, ...n];
}

/**
 * The rows (role 'row'): classic composition, constrained with unbounded and bounded neighbours,
 * the uninformative prior, and for pure releases (by another method than basic) the same by basic
 * composition ('pureUnbounded', …); then the plots' points (roles 'plot-m' and 'plot-n'). The
 * requests are numeric when the method is PLD.
 */
export function requests(inputs) {
  const classes = classesOf(inputs);
  const methodName = inputs.method;
  const delta = parseNumber(inputs.delta);
  const base = {
    op: 'databases',
    ...kMethods[methodName],
    ...(methodName === 'basic' ? {} : { delta }),
    databases: classes.map((item) => item.request),
  };
  const constraint = constraintOf(inputs, classes);
  const fields = fieldsOf(classes, constraint);
  const basic = { op: 'databases', method: 'basic', databases: base.databases };
  const rows = {
    classic: { ...base, constraint: { type: 'none' } },
    unbounded: { ...base, constraint, neighbours: 'unbounded' },
    bounded: { ...base, constraint, neighbours: 'bounded' },
    uninformative: { ...base, constraint: { type: 'none' }, adversary: 'uninformative' },
    ...(isPure(classes) && methodName !== 'basic'
      ? {
          pureUnbounded: { ...basic, constraint, neighbours: 'unbounded' },
          pureBounded: { ...basic, constraint, neighbours: 'bounded' },
          pureUninformative: { ...basic, constraint: { type: 'none' }, adversary: 'uninformative' },
        }
      : {}),
  };
  return [
    ...Object.entries(rows).map(([id, request]) => ({ id, role: 'row', label: kLabels[id], request, fields })),
    ...plotItems(base, classes, methodName === 'pld'),
  ];
}

/** The row the answer is about: the constrained one, or the uninformative prior's. */
export const explainedRow = (inputs) => (inputs.adversary === 'uninformative' ? 'uninformative' : 'unbounded');

/**
 * The ids of the rows that answer the question as asked (the headline's): for the person's
 * adversary (worst case: unbounded and bounded neighbours; or the uninformative prior), the pure
 * answers first where there are some, then the chosen method's.
 */
export function asked(inputs) {
  const pure = isPure(classesOf(inputs)) && inputs.method !== 'basic';
  const cases = inputs.adversary === 'uninformative' ? ['Uninformative'] : ['Unbounded', 'Bounded'];
  return [...(pure ? cases.map((name) => `pure${name}`) : []), ...cases.map((name) => name.toLowerCase())];
}
