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

  chance(probability) {
    return this.next() < probability;
  }
  integer(low, high) {
    return low + Math.floor(this.next() * (high - low + 1));
  }
  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }
  logUniform(low, high) {
    return Math.exp(Math.log(low) + this.next() * (Math.log(high) - Math.log(low)));
  }

  // Draws from `typical` most of the time, otherwise from `extreme` (edge values of the range).
  value(typical, extreme) {
    return this.chance(0.8) ? typical() : this.pick(extreme);
  }

  epsilon() {
    return this.value(
      () => this.logUniform(1e-4, 20),
      [0, 5e-324, 1e-300, 1e-12, 700, 1e6, 1e200, 1e308, Number.MAX_VALUE],
    );
  }
  delta() {
    return this.value(() => this.logUniform(1e-15, 0.1), [5e-324, 1e-300, 1e-100, 0.5, 0.999999, 1 - 2 ** -53]);
  }
  deltaOrZero() {
    return this.chance(0.2) ? 0 : this.delta();
  }
  rho() {
    return this.value(() => this.logUniform(1e-6, 10), [0, 1e-300, 1e100, 1e300, Number.MAX_VALUE]);
  }
  noise() {
    return this.value(
      () => this.logUniform(0.05, 100),
      [5e-324, 1e-310, 1e-300, 1e-150, 1e150, 1e300, Number.MAX_VALUE],
    );
  }
  sensitivity() {
    return this.chance(0.6) ? undefined : this.value(() => this.logUniform(0.1, 10), [1e-300, 1e300]);
  }
  rate() {
    return this.value(() => this.logUniform(1e-4, 1), [5e-324, 1e-200, 1]);
  }
  count(cap = 2 ** 53) {
    const typical = () => Math.min(cap, Math.round(this.logUniform(1, 1e4)));
    return this.value(
      typical,
      [1, 2, 1e6, 1e9, 1e12, 2 ** 53].filter((count) => count <= cap),
    );
  }
}

const withoutUndefined = (object) => JSON.parse(JSON.stringify(object));

function guarantee(random, types = ['pure', 'approx', 'zcdp', 'rdp']) {
  switch (random.pick(types)) {
    case 'pure':
      return { type: 'pure', epsilon: random.epsilon() };
    case 'approx':
      return { type: 'approx', epsilon: random.epsilon(), delta: random.deltaOrZero() };
    case 'zcdp':
      return { type: 'zcdp', rho: random.rho() };
    default: {
      const length = random.integer(1, 6);
      let order = 1 + random.logUniform(1e-3, 4);
      const orders = [];
      for (let i = 0; i < length; ++i) {
        orders.push(order);
        order *= random.logUniform(1.01, 8);
      }
      return { type: 'rdp', orders, epsilons: orders.map(() => random.epsilon()) };
    }
  }
}

const laplace = (random) => ({ type: 'laplace', scale: random.noise(), sensitivity: random.sensitivity() });
const gaussian = (random) => ({ type: 'gaussian', sigma: random.noise(), sensitivity: random.sensitivity() });
const exponential = (random) => ({
  type: 'exponential',
  epsilon: random.value(() => random.logUniform(0.01, 5), [1e-6, 700]),
});

// The discrete and selection mechanisms (randomized response has a pair under relation 'substitute' only).
const discreteSensitivity = (random) =>
  random.chance(0.5) ? undefined : random.value(() => random.integer(1, 5), [1, 40]);
const discreteMechanisms = {
  randomized_response: (random) => ({
    type: 'randomized_response',
    noise_parameter: random.rate(),
    num_buckets: random.value(() => random.integer(2, 10), [2, 1e6]),
  }),
  discrete_laplace: (random) => ({
    type: 'discrete_laplace',
    scale: random.noise(),
    sensitivity: discreteSensitivity(random),
  }),
  discrete_gaussian: (random) => ({
    type: 'discrete_gaussian',
    sigma: random.value(() => random.logUniform(0.05, 50), [0.01, 360, 1e6]),
    sensitivity: discreteSensitivity(random),
  }),
  permute_and_flip: (random) => ({
    type: 'permute_and_flip',
    epsilon: random.value(() => random.logUniform(0.01, 5), [1e-300, 699]),
  }),
  tree_aggregation: (random) => ({
    type: 'tree_aggregation',
    noise_multiplier: random.noise(),
    steps: random.count(),
    sensitivity: random.sensitivity(),
  }),
};
const discreteMechanism = (random) => discreteMechanisms[random.pick(Object.keys(discreteMechanisms))](random);
const relation = (random) => (random.chance(0.7) ? undefined : random.pick(['add_remove', 'substitute']));

// A value for a mechanism parameter drawn from its name, as the catalog declares it: the noise
// parameters, the sensitivity and the rates have drawers of their own; any other number is drawn over
// several orders of magnitude, a whole number where the name counts something.
const countNames = /size|steps|buckets|candidates|count|lattice/;
function parameterValue(random, parameter, catalog, depth) {
  if (parameter.kind === 'mechanism') return catalogMechanism(random, catalog, depth + 1);
  if (parameter.kind === 'boolean') return random.chance(0.5);
  if (parameter.kind === 'numbers') return Array.from({ length: random.integer(1, 4) }, () => random.next());
  if (/sigma|scale|noise/.test(parameter.name)) return random.noise();
  if (parameter.name === 'sensitivity') return random.sensitivity();
  if (parameter.name === 'rate') return random.rate();
  if (parameter.name === 'epsilon') return random.epsilon();
  if (countNames.test(parameter.name)) return random.count(1e6);
  return random.value(() => random.logUniform(1e-3, 1e3), [0, 5e-324, 1, 1e300]);
}

/**
 * A mechanism of any type of the catalog (schema().mechanisms), its parameters drawn by name, defaults
 * left out half the time: a mechanism added to the catalog is fuzzed with no change here.
 */
export function catalogMechanism(random, catalog, depth = 0) {
  const types = depth < 2 ? catalog : catalog.filter((type) => !type.parameters.some((p) => p.kind === 'mechanism'));
  const type = random.pick(types);
  const mechanism = { type: type.name };
  for (const parameter of type.parameters) {
    if (parameter.default !== undefined && random.chance(0.5)) continue;
    mechanism[parameter.name] = parameterValue(random, parameter, catalog, depth);
  }
  return mechanism;
}

function pldMechanism(random, depth = 0) {
  if (random.catalog && random.chance(0.2)) return catalogMechanism(random, random.catalog, depth);
  const kind = random.pick(
    depth < 2
      ? ['laplace', 'gaussian', 'exponential', 'subsampled', 'without_replacement', 'mixture', 'discrete']
      : ['laplace', 'gaussian', 'exponential'],
  );
  if (kind === 'discrete') return discreteMechanism(random);
  if (kind === 'laplace') return laplace(random);
  if (kind === 'exponential') return exponential(random);
  if (kind === 'gaussian') return gaussian(random);
  if (kind === 'subsampled')
    return { type: 'poisson_subsampled', rate: random.rate(), mechanism: pldMechanism(random, depth + 1) };
  if (kind === 'without_replacement') {
    // Relation 'substitute' only: under add_remove the request is refused on 'relation'.
    const dataset_size = random.value(() => random.integer(1, 1e5), [1, 2 ** 53]);
    const sample_size = Math.max(1, Math.floor(dataset_size * random.next()));
    return {
      type: 'sampled_without_replacement',
      dataset_size,
      sample_size,
      mechanism: pldMechanism(random, depth + 1),
    };
  }
  const size = random.integer(1, 4);
  const weights = Array.from({ length: size }, () => random.next() + 0.01);
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    type: 'gaussian_mixture',
    sigma: random.value(() => random.logUniform(0.3, 20), [1e-3, 1e3]),
    shifts: Array.from({ length: size }, () => random.logUniform(0.01, 3) * (random.chance(0.2) ? -1 : 1)),
    weights: weights.map((w) => w / total),
  };
}

// PLD work grows with the grid and the counts; these keep a fuzzed numeric request well under a second.
const pldCount = (random) => random.value(() => random.integer(1, 50), [1, 100]);
const pldItems = (random) =>
  Array.from({ length: random.integer(1, 2) }, () =>
    random.chance(0.75)
      ? { mechanism: pldMechanism(random), count: pldCount(random) }
      : { guarantee: guarantee(random, ['pure', 'approx']), count: pldCount(random) },
  );

function closedFormItems(random, method) {
  if (method === 'optimal') {
    const item = random.chance(0.3)
      ? { mechanism: laplace(random) }
      : { guarantee: guarantee(random, ['pure', 'approx']) };
    return Array.from({ length: random.integer(1, 2) }, () => ({ ...item, count: random.count(1e10) }));
  }
  const types = method === 'zcdp' ? ['pure', 'zcdp', 'approx'] : ['pure', 'approx'];
  return Array.from({ length: random.integer(1, 3) }, () => {
    const item = random.chance(0.25)
      ? {
          mechanism:
            method === 'zcdp' && random.chance(0.5)
              ? gaussian(random)
              : random.pick([
                  laplace,
                  exponential,
                  (r) => ({ type: 'poisson_subsampled', rate: r.rate(), mechanism: laplace(r) }),
                ])(random),
        }
      : { guarantee: guarantee(random, types) };
    return { ...item, count: random.count() };
  });
}

const increasing = (random, length, first, factor) => {
  const values = [first];
  while (values.length < length) values.push(values[values.length - 1] * factor());
  return values;
};

// Every mechanism with a Rényi curve (randomized response under 'substitute' only: refused otherwise).
const rdpMechanism = (random) =>
  random.pick([
    () => gaussian(random),
    () => ({ type: 'poisson_subsampled', rate: random.rate(), mechanism: gaussian(random) }),
    () => ({ type: 'laplace', scale: random.noise() }),
    () => exponential(random),
    () => discreteMechanism(random),
    () => ({
      type: 'sampled_without_replacement',
      dataset_size: 1000,
      sample_size: random.integer(1, 1000),
      mechanism: random.chance(0.5) ? gaussian(random) : { type: 'laplace', scale: random.noise() },
    }),
  ])();
const rdpItems = (random) =>
  Array.from({ length: random.integer(1, 2) }, () => ({ mechanism: rdpMechanism(random), count: random.count() }));
// Strictly increasing orders in (1, 10000], sometimes with order 1 first and "infinity" last.
const rdpOrders = (random) => [
  ...(random.chance(0.2) ? [1] : []),
  ...increasing(
    random,
    random.integer(1, 12),
    random.value(() => 1 + random.logUniform(1e-3, 10), [1 + 2 ** -52, 10000]),
    () => random.logUniform(1.01, 4),
  ).filter((order) => order <= 10000),
  ...(random.chance(0.2) ? ['infinity'] : []),
];
// Hyperparameter tuning's law of the number of runs, sometimes out of range.
const repetitions = (random) => {
  const distribution = random.pick(['poisson', 'geometric', 'logarithmic', 'truncated_negative_binomial']);
  return {
    mean: random.value(() => random.logUniform(1, 1000), [0.5, 1, 1e300]),
    distribution,
    shape:
      distribution === 'truncated_negative_binomial'
        ? random.value(() => random.logUniform(0.01, 5) - 0.5, [-1, 0, 1e6])
        : undefined,
  };
};

// Families of distinct existing class indices (at most 64 families).
const families = (random, classes) =>
  Array.from({ length: random.value(() => random.integer(1, 3), [64]) }, () => {
    const members = Array.from({ length: classes }, (_, index) => index).filter(() => random.chance(0.5));
    return members.length ? members : [random.integer(0, classes - 1)];
  });

// Exactly one of rho (0, 100] and sigma ≥ 0.0707 (1/√(2·100)), and r in (0, 1].
const groupwiseNoise = (random) => ({
  ...(random.chance(0.5)
    ? { rho: random.value(() => random.logUniform(1e-4, 2), [1e-300, 1e-12, 100]) }
    : { sigma: random.value(() => random.logUniform(0.1, 100), [0.0708, 1e6, 1e300]) }),
  relative_error: random.value(() => random.logUniform(0.01, 1), [5e-324, 1e-9, 1]),
});
const groupCount = (random, minimum) =>
  random.value(() => Math.round(random.logUniform(Math.max(1, minimum), 1e5)), [minimum, 1, 1e9]);
// Strictly increasing Rényi orders in [1.01, 256].
const groupwiseOrders = (random) =>
  increasing(
    random,
    random.integer(1, 8),
    random.value(() => 1.01 + random.logUniform(1e-3, 10), [1.01, 256]),
    () => random.logUniform(1.05, 4),
  ).filter((order) => order <= 256);

/** One valid-request generator per op; `methods` lists the methods it draws (for the report). */
// Every batch sampler of op 'dpsgd', and the fields of its batches.
const dpsgdSamplings = ['poisson', 'fixed_batch', 'truncated_poisson', 'shuffle', 'balls_and_bins', 'cyclic_poisson'];
function dpsgdBatches(random, sampling) {
  const datasetSize = random.value(() => Math.round(random.logUniform(100, 1e6)), [1, 1e9, 2 ** 53]);
  const batchSize = Math.max(1, Math.round(datasetSize * random.logUniform(1e-4, 0.5)));
  const rate = () => random.value(() => random.logUniform(1e-3, 0.1), [5e-324, 1e-9, 1]);
  const byRate = random.chance(0.5);
  switch (sampling) {
    case 'poisson':
      return byRate
        ? { sampling, sampling_rate: rate() }
        : { sampling, dataset_size: datasetSize, batch_size: batchSize };
    case 'truncated_poisson':
      return {
        sampling,
        dataset_size: datasetSize,
        ...(byRate ? { sampling_rate: rate() } : { batch_size: batchSize }),
        max_batch_size: Math.max(1, Math.round(batchSize * random.logUniform(0.8, 2))),
      };
    case 'shuffle':
      return { sampling, dataset_size: datasetSize, batch_size: batchSize, reshuffle: random.chance(0.5) };
    case 'cyclic_poisson': {
      const bands = random.integer(1, 8);
      return byRate
        ? { sampling, bands, sampling_rate: rate() }
        : { sampling, bands, dataset_size: datasetSize, batch_size: Math.max(1, Math.floor(batchSize / bands)) };
    }
    default:
      return { sampling, dataset_size: datasetSize, batch_size: batchSize };
  }
}

export const opTable = {
  group: (random) => {
    if (random.chance(0.6)) return { op: 'group', k: random.count(), guarantee: guarantee(random) };
    if (random.chance(0.3))
      return {
        op: 'group',
        k: random.count(),
        delta: random.delta(),
        relation: relation(random),
        mechanism: discreteMechanism(random),
      };
    if (random.chance(0.5))
      return { op: 'group', k: random.count(), mechanism: random.pick([laplace, exponential])(random) };
    return { op: 'group', k: random.count(), delta: random.delta(), mechanism: gaussian(random) };
  },
  compose: (random, { numeric }) => {
    const method = random.pick(numeric ? ['pld'] : ['basic', 'parallel', 'advanced', 'optimal', 'zcdp', 'rdp']);
    const request = { op: 'compose', method };
    if (method === 'rdp')
      return {
        ...request,
        delta: random.delta(),
        items: rdpItems(random),
        orders: random.chance(0.5) ? undefined : rdpOrders(random),
        relation: relation(random),
        repetitions: random.chance(0.2) ? repetitions(random) : undefined,
      };
    if (method === 'pld') {
      // δ at ε: below 0 too, where δ(ε) ≥ 1 − e^ε.
      Object.assign(
        request,
        random.chance(0.7) ? { delta: random.delta() } : { epsilon: random.epsilon() * (random.chance(0.9) ? 1 : -1) },
      );
      request.items = pldItems(random);
      request.relation = relation(random);
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
      op: 'split',
      method,
      variant: method === 'advanced' ? random.pick([undefined, 'kairouz', 'dwork_rothblum_vadhan']) : undefined,
      target: { epsilon: random.epsilon(), delta: method === 'basic' ? random.deltaOrZero() : random.delta() },
      count: random.count(method === 'optimal' ? 1e10 : 2 ** 53),
    };
  },
  profile: (random) => ({
    op: 'profile',
    items: pldItems(random),
    epsilons: Array.from({ length: random.integer(1, 20) }, () =>
      random.value(() => random.logUniform(1e-3, 30), [0, 1e6, -0.5, -40]),
    ),
  }),
  calibrate: (random, { numeric }) => {
    const noise = random.pick(['laplace', 'gaussian']);
    const base = { type: noise, sensitivity: random.sensitivity() };
    const subsampled = numeric && random.chance(0.5);
    const mechanism = subsampled ? { type: 'poisson_subsampled', rate: random.rate(), mechanism: base } : base;
    const unknown = noise === 'laplace' ? 'scale' : random.pick(['sigma', 'noise_multiplier']);
    // Closed forms: 'basic' (pure targets), 'optimal', 'analytic', 'zcdp'; numeric: 'pld' or its default.
    const method = numeric
      ? random.pick(['pld', undefined])
      : random.pick(noise === 'laplace' ? ['basic', 'optimal'] : ['analytic', 'zcdp', undefined]);
    const delta = method === 'basic' ? 0 : random.delta();
    const count = numeric ? pldCount(random) : random.count(method === 'optimal' ? 1e4 : 2 ** 53);
    return {
      op: 'calibrate',
      mechanism,
      unknown,
      count: random.chance(0.2) ? undefined : count,
      method,
      target: { epsilon: random.epsilon(), delta },
    };
  },
  dpsgd: (random) => {
    const request = {
      op: 'dpsgd',
      group_size: random.chance(0.3) ? undefined : random.value(() => random.integer(1, 8), [1, 64, 1000, 100000]),
      delta: random.delta(),
      ...dpsgdBatches(random, random.pick(dpsgdSamplings)),
    };
    if (request.dataset_size && request.group_size)
      request.group_size = Math.min(request.group_size, request.dataset_size);
    if (random.chance(0.7)) request.steps = random.value(() => random.integer(1, 500), [1, 1e4, 2 ** 53]);
    else request.epochs = random.value(() => random.logUniform(0.1, 5), [1e-300, 1e6]);
    if (random.chance(0.3)) request.relation = random.pick(['add_remove', 'zero_out', 'substitute']);
    if (random.chance(0.75))
      request.noise_multiplier = random.value(() => random.logUniform(0.5, 20), [1e-3, 1e4, 1e300]);
    else request.target = { epsilon: random.value(() => random.logUniform(0.5, 20), [1e-6, 1e3]) };
    if (random.chance(0.1)) request.repetitions = repetitions(random);
    return request;
  },
  dpsgd_samplers: (random) => {
    const datasetSize = random.value(() => Math.round(random.logUniform(100, 1e6)), [1, 1e9]);
    return {
      op: 'dpsgd_samplers',
      dataset_size: datasetSize,
      batch_size: Math.max(1, Math.round(datasetSize * random.logUniform(1e-4, 0.5))),
      noise_multiplier: random.value(() => random.logUniform(0.5, 20), [1e-3, 1e4]),
      epochs: random.value(() => random.logUniform(0.1, 5), [1e-300, 1e6]),
      delta: random.delta(),
      group_size: random.chance(0.7) ? undefined : random.integer(1, 4),
      bands: random.chance(0.7) ? undefined : random.integer(1, 8),
      relation: random.chance(0.5) ? undefined : random.pick(['add_remove', 'zero_out', 'substitute']),
    };
  },
  rdp: (random) => ({
    op: 'rdp',
    items: rdpItems(random),
    orders: random.chance(0.5) ? undefined : rdpOrders(random),
    relation: relation(random),
  }),
  databases: (random, { numeric }) => {
    const method = numeric
      ? random.pick(['pld', 'basic', 'advanced', 'optimal', 'zcdp'])
      : random.pick(['basic', 'advanced', 'optimal', 'zcdp']);
    // Numeric requests are PLD ones and the uninformative adversary's (the page's numeric lane).
    const uninformative = numeric && (method !== 'pld' || random.chance(0.3));
    const classes = random.value(() => random.integer(1, 4), [1, 20, 1000]);
    // What each method composes: Gaussians need 'zcdp' or 'pld', zCDP guarantees 'zcdp', δ > 0 not 'zcdp'.
    const mechanisms = method === 'zcdp' || method === 'pld' ? [laplace, gaussian] : [laplace];
    const guarantees = { zcdp: ['pure', 'zcdp'], pld: ['pure', 'approx'] }[method] ?? ['pure', 'approx'];
    const release = () =>
      random.chance(0.3)
        ? { mechanism: random.pick(mechanisms)(random) }
        : { guarantee: guarantee(random, guarantees) };
    const shared = release();
    const cap = method === 'pld' || uninformative ? 1e3 : 1e6;
    const databases = Array.from({ length: classes }, () => ({
      ...(method === 'optimal' || random.chance(0.3) ? shared : release()),
      count: random.chance(0.2) ? undefined : random.count(cap),
      queries: random.chance(0.5) ? undefined : random.value(() => random.integer(1, 10), [1, 1000]),
    }));
    const request = { op: 'databases', method, databases };
    if (method === 'advanced') request.variant = random.pick([undefined, 'kairouz', 'dwork_rothblum_vadhan']);
    if (method !== 'basic' && (method !== 'zcdp' || uninformative || random.chance(0.5)))
      request.delta = random.delta();
    if (uninformative) request.adversary = 'uninformative';
    else {
      request.constraint = random.pick([
        undefined,
        { type: 'none' },
        { type: 'at_most', m: random.count() },
        { type: 'exactly_one' },
        { type: 'families', families: families(random, classes) },
      ]);
      request.neighbours = random.pick([undefined, 'unbounded', 'bounded']);
      request.adversary = random.pick([undefined, 'worst_case']);
    }
    return request;
  },
  tradeoff: (random, { numeric }) => {
    // A forward request of an op with a trade-off (numeric ones in the numeric lane, like a group of
    // a Laplace mechanism, whose curve comes from its PLD), or a bare guarantee.
    const source = random.pick(
      numeric
        ? ['compose', 'profile', 'dpsgd', 'databases', 'group']
        : ['group', 'compose', 'convert', 'databases', 'bare'],
    );
    let of;
    if (source === 'bare') of = { guarantee: guarantee(random) };
    else if (source === 'group' && numeric) of = { op: 'group', k: random.count(), mechanism: laplace(random) };
    else of = opTable[source](random, { numeric });
    if (source === 'group' && !numeric && of.mechanism?.type === 'laplace')
      of = { ...of, mechanism: gaussian(random), delta: random.delta() };
    if (of.target && source === 'dpsgd') {
      delete of.target;
      of.noise_multiplier = random.value(() => random.logUniform(0.5, 20), [1e-3, 1e4]);
    }
    const rates = () =>
      Array.from({ length: random.value(() => random.integer(1, 5), [0, 200]) }, () =>
        random.value(() => random.logUniform(1e-9, 1), [0, 1, 5e-324]),
      );
    return {
      op: 'tradeoff',
      of,
      alphas: random.chance(0.5) ? undefined : rates(),
      fpr: random.chance(0.5) ? undefined : rates(),
      prior: random.chance(0.7) ? undefined : random.value(() => random.logUniform(0.01, 0.99), [1e-300, 0.999999]),
      reconstruction_baselines: random.chance(0.8) ? undefined : rates(),
    };
  },
  audit: (random, { numeric }) => {
    // Counts and one run are closed forms; scores (sorted, up to a million) run in the numeric lane.
    const kind = numeric ? 'scores' : random.pick(['counts', 'one_run']);
    let evidence;
    if (kind === 'counts') {
      const positives = random.count();
      const negatives = random.count();
      evidence = {
        kind,
        true_positives: Math.floor(random.next() * (positives + 1)),
        positives,
        false_positives: Math.floor(random.next() * (negatives + 1)),
        negatives,
      };
    } else if (kind === 'one_run') {
      const canaries = random.count();
      const guesses = Math.min(
        canaries,
        random.value(() => random.integer(0, 2000), [0, 1, 1e5]),
      );
      evidence = { kind, canaries, guesses, correct: Math.floor(random.next() * (guesses + 1)) };
    } else {
      const scores = (shift) =>
        Array.from({ length: random.value(() => random.integer(1, 500), [1, 20000]) }, () =>
          random.value(() => random.next() + shift, [0, 1, -1e300, 1e300]),
        );
      evidence = { kind, member_scores: scores(random.next()), nonmember_scores: scores(0) };
      if (random.chance(0.2)) evidence.preregistered_thresholds = scores(0.5).slice(0, 5);
    }
    // One run checks ε-DP and (ε, δ)-DP claims (others are refused on the claim): mostly those.
    const epsilonClaims = kind === 'one_run' && random.chance(0.8);
    const types = epsilonClaims ? ['pure', 'approx'] : undefined;
    const claims = [
      () => guarantee(random, types),
      () => ({ guarantee: guarantee(random, types) }),
      () => ({ type: 'gdp', mu: random.value(() => random.logUniform(0.01, 10), [0, 1e300]) }),
      () => ({ op: 'group', k: random.integer(1, 4), delta: random.delta(), mechanism: gaussian(random) }),
    ];
    return {
      op: 'audit',
      evidence,
      confidence: random.chance(0.5)
        ? undefined
        : random.value(() => random.next(), [1e-300, 0.5, 0.999999, 1 - 2 ** -53]),
      delta: random.chance(0.5) ? undefined : random.deltaOrZero(),
      claim: random.chance(0.5) ? undefined : random.pick(epsilonClaims ? claims.slice(0, 2) : claims)(),
    };
  },
  groupwise_simulate: (random) => ({
    op: 'groupwise_simulate',
    ...groupwiseNoise(random),
    count: groupCount(random, 0),
    samples: random.value(() => random.integer(2, 20000), [2, 1e6, 1e7]),
    seed: random.chance(0.5) ? undefined : random.value(() => random.integer(0, 1e6), [0, 2 ** 53]),
    bins: random.chance(0.5) ? undefined : random.value(() => random.integer(1, 200), [1, 10000]),
    range: random.chance(0.8)
      ? undefined
      : [
          random.value(() => -random.logUniform(1, 1e4), [-1e300]),
          random.value(() => random.logUniform(1, 1e4), [1e300]),
        ],
  }),
  groupwise_privacy: (random) => ({
    op: 'groupwise_privacy',
    ...groupwiseNoise(random),
    counts: Array.from({ length: random.value(() => random.integer(1, 3), [20]) }, () => groupCount(random, 0)),
    delta: random.chance(0.5) ? undefined : random.delta(),
    orders: random.chance(0.5) ? undefined : groupwiseOrders(random),
  }),
  groupwise_plan: (random) => ({
    op: 'groupwise_plan',
    relative_error: random.value(() => random.logUniform(0.01, 1), [5e-324, 1e-9, 1]),
    count: groupCount(random, 1),
    delta: random.chance(0.5) ? undefined : random.delta(),
    orders: random.chance(0.5) ? undefined : groupwiseOrders(random),
  }),
};

// The one-step pair of a DP-SGD setting (Poisson or fixed batches, the samplers with one).
opTable.dpsgd_pair = (random) => {
  const sampling = random.pick(['poisson', 'fixed_batch']);
  const batches = dpsgdBatches(random, sampling);
  if (sampling === 'poisson' && batches.sampling_rate === undefined) {
    batches.sampling_rate = batches.batch_size / batches.dataset_size;
    delete batches.batch_size;
    delete batches.dataset_size;
  }
  return {
    op: 'dpsgd_pair',
    ...batches,
    group_size: random.value(() => random.integer(1, 8), [1, 64, 1000]),
    relation: random.chance(0.3) ? random.pick(['add_remove', 'substitute']) : undefined,
    noise_multiplier: random.logUniform(0.05, 20),
    points: random.chance(0.3) ? random.value(() => random.integer(2, 400), [2, 10001]) : undefined,
  };
};

/** Ops answered by the numeric engine only, which the fuzz draws less often (they take milliseconds to seconds). */
export const numericOps = new Set([
  'profile',
  'dpsgd',
  'dpsgd_samplers',
  'groupwise_simulate',
  'groupwise_privacy',
  'groupwise_plan',
]);
/** Ops with closed-form and numeric methods: their generator draws numeric ones when told `numeric`. */
export const mixedOps = new Set(['compose', 'calibrate', 'databases', 'tradeoff', 'audit']);

// Solving for an unknown (docs/API.md, "Solving for an unknown"): the ops that take `unknown`, and
// the unknowns each request of theirs accepts.
const solveUnknowns = {
  dpsgd: (request) => ['steps', 'epochs', 'group_size', request.sampling_rate ? 'sampling_rate' : 'batch_size'],
  compose: () => ['count'],
  group: () => ['k'],
};
// Names no op solves for, or that another op or sampling takes.
const otherUnknowns = ['noise', 'steps', 'count', 'k', 'group_size', 'sampling_rate', 'batch_size', '', 'epsilon'];

const solveEpsilon = (random) => random.value(() => random.logUniform(0.5, 20), [1e-6, 700, 701, 1e300]);

/**
 * `request` asked the other way round: the unknown's field left out, `unknown` and `target` given
 * (a share with an unknown this request does not accept, which must be an error on a field it has).
 */
function asSolve(random, request) {
  const solve = structuredClone(request);
  const unknown = random.chance(0.85) ? random.pick(solveUnknowns[request.op](request)) : random.pick(otherUnknowns);
  const leaveOut = (...fields) => fields.forEach((field) => delete solve[field]);
  solve.unknown = unknown;
  if (request.op === 'dpsgd') {
    solve.noise_multiplier ??= random.logUniform(0.5, 20);
    solve.target = { epsilon: solveEpsilon(random) };
    if (unknown === 'steps' || unknown === 'epochs') leaveOut('steps', 'epochs');
    else leaveOut(unknown);
    // An epoch's steps change with the sampling rate or batch size: those solves take steps.
    if ((unknown === 'sampling_rate' || unknown === 'batch_size') && solve.epochs !== undefined) {
      leaveOut('epochs');
      solve.steps = random.integer(1, 500);
    }
  } else if (request.op === 'compose') {
    const items = solve.items ?? [];
    if (items.length) delete items[random.integer(0, items.length - 1)].count;
    const delta = ['basic', 'parallel'].includes(request.method) ? random.deltaOrZero() : random.delta();
    solve.target = { epsilon: solveEpsilon(random), delta: solve.delta ?? delta };
    leaveOut('delta', 'epsilon');
  } else {
    const delta = solve.delta ?? (solve.guarantee?.type === 'approx' ? random.delta() : undefined);
    solve.target = { epsilon: solveEpsilon(random), delta };
    leaveOut('k', 'delta');
  }
  return solve;
}

const weirdValues = [
  null,
  true,
  false,
  '',
  'x',
  '\ud800',
  'pure',
  -1,
  0,
  -0,
  1.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 53 + 2,
  [],
  [1],
  {},
  { type: 'pure' },
];

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
 * opTable); `numericShare` is the fraction of requests that go to the numeric engine; `solveShare`
 * the fraction of the requests of ops that take `unknown` that are asked as a solve (asSolve).
 * `catalog` (schema().mechanisms), when given, adds mechanisms of every type it lists to the draws.
 */
export function createGenerator(
  seed,
  { ops = Object.keys(opTable), numericShare = 0.02, mutatedShare = 0.35, solveShare = 0.2, catalog } = {},
) {
  const random = new RandomSource(seed);
  random.catalog = catalog;
  // Solve requests draw from a stream of their own, so the forward requests of a seed stay as they were.
  const solving = new RandomSource(seed ^ 0x5f3759df);
  const closedOps = ops.filter((op) => !numericOps.has(op));
  const numeric = ops.filter((op) => numericOps.has(op) || mixedOps.has(op));
  return function next() {
    if (random.chance(0.005)) return random.pick([null, 42, 'compose', [], [{ op: 'group' }], true]);
    const isNumeric = closedOps.length === 0 || (numeric.length > 0 && random.chance(numericShare));
    const op = random.pick(isNumeric ? numeric : closedOps);
    let request = withoutUndefined(opTable[op](random, { numeric: isNumeric }));
    if (solveUnknowns[op] && solving.chance(solveShare)) request = withoutUndefined(asSolve(solving, request));
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
