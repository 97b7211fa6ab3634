// Seeded request generator for the fuzz test (tests/node/fuzz.test.mjs) and `npm run fuzz`.
// Every op is one entry of `opTable`: a function from a RandomSource to a valid request, with
// values drawn anywhere in their valid range, extremes included. Mutated requests are valid ones
// with one to three leaves or keys changed to something else. To fuzz a new op, add one entry; ops
// the build does not know are skipped (see `supportedOps`).

/** A small seeded PRNG (mulberry32) with the helpers the generators need. */
export class RandomSource {
  constructor(seed) {
    this.state = seed >>> 0;
  }

  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(probability) { return this.next() < probability; }
  integer(low, high) { return low + Math.floor(this.next() * (high - low + 1)); }
  pick(list) { return list[Math.floor(this.next() * list.length)]; }
  logUniform(low, high) { return Math.exp(Math.log(low) + this.next() * (Math.log(high) - Math.log(low))); }

  // Draws from `typical` most of the time, otherwise from `extreme` (edge values of the range).
  value(typical, extreme) { return this.chance(0.8) ? typical() : this.pick(extreme); }

  epsilon() { return this.value(() => this.logUniform(1e-4, 20), [0, 5e-324, 1e-300, 1e-12, 700, 1e6, 1e200, 1e308, Number.MAX_VALUE]); }
  delta() { return this.value(() => this.logUniform(1e-15, 0.1), [5e-324, 1e-300, 1e-100, 0.5, 0.999999, 1 - 2 ** -53]); }
  deltaOrZero() { return this.chance(0.2) ? 0 : this.delta(); }
  rho() { return this.value(() => this.logUniform(1e-6, 10), [0, 1e-300, 1e100, 1e300, Number.MAX_VALUE]); }
  noise() { return this.value(() => this.logUniform(0.05, 100), [5e-324, 1e-310, 1e-300, 1e-150, 1e150, 1e300, Number.MAX_VALUE]); }
  sensitivity() { return this.chance(0.6) ? undefined : this.value(() => this.logUniform(0.1, 10), [1e-300, 1e300]); }
  rate() { return this.value(() => this.logUniform(1e-4, 1), [5e-324, 1e-200, 1]); }
  count(cap = 2 ** 53) {
    const typical = () => Math.min(cap, Math.round(this.logUniform(1, 1e4)));
    return this.value(typical, [1, 2, 1e6, 1e9, 1e12, 2 ** 53].filter((count) => count <= cap));
  }
}

const withoutUndefined = (object) => JSON.parse(JSON.stringify(object));

function guarantee(random, types = ['pure', 'approx', 'zcdp', 'rdp']) {
  switch (random.pick(types)) {
    case 'pure': return { type: 'pure', epsilon: random.epsilon() };
    case 'approx': return { type: 'approx', epsilon: random.epsilon(), delta: random.deltaOrZero() };
    case 'zcdp': return { type: 'zcdp', rho: random.rho() };
    default: {
      const length = random.integer(1, 6);
      let order = 1 + random.logUniform(1e-3, 4);
      const orders = [];
      for (let i = 0; i < length; ++i) { orders.push(order); order *= random.logUniform(1.01, 8); }
      return { type: 'rdp', orders, epsilons: orders.map(() => random.epsilon()) };
    }
  }
}

const laplace = (random) => ({ type: 'laplace', scale: random.noise(), sensitivity: random.sensitivity() });
const gaussian = (random) => ({ type: 'gaussian', sigma: random.noise(), sensitivity: random.sensitivity() });

function pldMechanism(random, depth = 0) {
  const kind = random.pick(depth < 2 ? ['laplace', 'gaussian', 'subsampled', 'mixture'] : ['laplace', 'gaussian']);
  if (kind === 'laplace') return laplace(random);
  if (kind === 'gaussian') return gaussian(random);
  if (kind === 'subsampled') return { type: 'poisson_subsampled', rate: random.rate(), mechanism: pldMechanism(random, depth + 1) };
  const size = random.integer(1, 4);
  const weights = Array.from({ length: size }, () => random.next() + 0.01);
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    type: 'gaussian_mixture', sigma: random.value(() => random.logUniform(0.3, 20), [1e-3, 1e3]),
    shifts: Array.from({ length: size }, () => random.logUniform(0.01, 3) * (random.chance(0.2) ? -1 : 1)),
    weights: weights.map((w) => w / total),
  };
}

// PLD work grows with the grid and the counts; these keep a fuzzed numeric request well under a second.
const pldCount = (random) => random.value(() => random.integer(1, 50), [1, 100]);
const pldItems = (random) => Array.from({ length: random.integer(1, 2) }, () => (random.chance(0.75)
  ? { mechanism: pldMechanism(random), count: pldCount(random) }
  : { guarantee: guarantee(random, ['pure', 'approx']), count: pldCount(random) }));

function closedFormItems(random, method) {
  if (method === 'optimal') {
    const item = random.chance(0.3) ? { mechanism: laplace(random) } : { guarantee: guarantee(random, ['pure', 'approx']) };
    return Array.from({ length: random.integer(1, 2) }, () => ({ ...item, count: random.count(1e10) }));
  }
  const types = method === 'zcdp' ? ['pure', 'zcdp', 'approx'] : ['pure', 'approx'];
  return Array.from({ length: random.integer(1, 3) }, () => {
    const item = random.chance(0.25) ? { mechanism: method === 'zcdp' && random.chance(0.5) ? gaussian(random) : laplace(random) }
      : { guarantee: guarantee(random, types) };
    return { ...item, count: random.count() };
  });
}

/** One valid-request generator per op; `methods` lists the methods it draws (for the report). */
export const opTable = {
  group: (random) => {
    if (random.chance(0.6)) return { op: 'group', k: random.count(), guarantee: guarantee(random) };
    if (random.chance(0.5)) return { op: 'group', k: random.count(), mechanism: laplace(random) };
    return { op: 'group', k: random.count(), delta: random.delta(), mechanism: gaussian(random) };
  },
  compose: (random, { numeric }) => {
    const method = random.pick(numeric ? ['pld'] : ['basic', 'parallel', 'advanced', 'optimal', 'zcdp']);
    const request = { op: 'compose', method };
    if (method === 'pld') {
      Object.assign(request, random.chance(0.7) ? { delta: random.delta() } : { epsilon: random.epsilon() });
      request.items = pldItems(random);
      if (random.chance(0.2)) request.discretization = random.value(() => random.logUniform(1e-3, 0.1), [1e-6, 1]);
      return request;
    }
    request.items = closedFormItems(random, method);
    if (method === 'advanced') {
      request.variant = random.pick([undefined, 'kairouz', 'dwork_rothblum_vadhan']);
      Object.assign(request, random.chance(0.5) ? { delta: random.delta() } : { delta_slack: random.delta() });
    }
    if (method === 'optimal') request.delta = random.delta();
    if (method === 'zcdp' && random.chance(0.7)) {
      request.delta = random.delta();
      request.conversion = random.pick([undefined, 'bun_steinke', 'canonne_kamath_steinke']);
    }
    return request;
  },
  convert: (random) => {
    const to = random.pick(['approx', 'zcdp']);
    const request = { op: 'convert', guarantee: guarantee(random), to };
    if (to === 'approx') {
      request.delta = random.delta();
      request.conversion = random.pick([undefined, 'bun_steinke', 'canonne_kamath_steinke']);
    }
    return request;
  },
  split: (random) => {
    const method = random.pick(['basic', 'advanced', 'optimal', 'zcdp']);
    return {
      op: 'split', method, variant: method === 'advanced' ? random.pick([undefined, 'kairouz', 'dwork_rothblum_vadhan']) : undefined,
      target: { epsilon: random.epsilon(), delta: method === 'basic' ? random.deltaOrZero() : random.delta() },
      count: random.count(method === 'optimal' ? 1e10 : 2 ** 53),
    };
  },
  profile: (random) => ({
    op: 'profile', items: pldItems(random),
    epsilons: Array.from({ length: random.integer(1, 20) }, () => random.value(() => random.logUniform(1e-3, 30), [0, 1e6])),
  }),
};

/** Ops answered by the numeric engine, which the fuzz draws less often (they take milliseconds to seconds). */
export const numericOps = new Set(['profile']);

const weirdValues = [null, true, false, '', 'x', '\ud800', 'pure', -1, 0, -0, 1.5, 1e308, -1e308, 5e-324, 2 ** 53 + 2, [], [1], {}, { type: 'pure' }];

// The dotted paths of every value in `value` (objects and arrays included).
function leafPaths(value, prefix = [], paths = []) {
  if (value !== null && typeof value === 'object') {
    if (prefix.length) paths.push(prefix);
    for (const key of Object.keys(value)) leafPaths(value[key], [...prefix, key], paths);
  } else if (prefix.length) {
    paths.push(prefix);
  }
  return paths;
}

function mutate(random, request) {
  const copy = structuredClone(request);
  for (let n = random.integer(1, 3); n > 0; --n) {
    const paths = leafPaths(copy);
    if (!paths.length) break;
    const path = random.pick(paths);
    const parent = path.slice(0, -1).reduce((node, key) => node[key], copy);
    const key = path[path.length - 1];
    const action = random.next();
    if (action < 0.55) parent[key] = structuredClone(random.pick(weirdValues));
    else if (action < 0.75) delete parent[key];
    else if (action < 0.85) parent[key] = random.chance(0.5) ? NaN : Infinity;
    else if (Array.isArray(parent)) parent.push(structuredClone(random.pick(weirdValues)));
    else parent[`${key}_extra`] = 1;
  }
  return copy;
}

/**
 * Returns next(): the next request. `ops` is the list of ops to draw (default: every entry of
 * opTable); `numericShare` is the fraction of requests that go to the numeric engine.
 */
export function createGenerator(seed, { ops = Object.keys(opTable), numericShare = 0.02, mutatedShare = 0.35 } = {}) {
  const random = new RandomSource(seed);
  const closedOps = ops.filter((op) => !numericOps.has(op));
  const numeric = ops.includes('compose') ? [...ops.filter((op) => numericOps.has(op)), 'compose'] : ops.filter((op) => numericOps.has(op));
  return function next() {
    if (random.chance(0.005)) return random.pick([null, 42, 'compose', [], [{ op: 'group' }], true]);
    const isNumeric = numeric.length > 0 && random.chance(numericShare);
    const op = random.pick(isNumeric ? numeric : closedOps);
    const request = withoutUndefined(opTable[op](random, { numeric: isNumeric }));
    return random.chance(mutatedShare) ? mutate(random, request) : request;
  };
}

/** The ops of opTable that the built calculator knows (an unknown op is an error on `op`). */
export function supportedOps(calc) {
  return Object.keys(opTable).filter((op) => {
    const response = calc.compute({ op });
    return response.ok || response.error.field !== 'op';
  });
}
