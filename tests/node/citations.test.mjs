// Every citation a result carries comes with the BibTeX key of each work it cites (`citation_key`),
// every key has an entry in the page's bibliography (web/app/bibliography.js), and no result speaks
// of the project's internal documents or issue numbers: one request per method of every op.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCalculator, okResult } from './helpers.mjs';
import { hasEntry } from '../../web/app/bibliography.js';
import { keysOf } from '../../web/app/citation-keys.js';

const calc = await loadCalculator();

const pure = (epsilon, count = 1) => ({ guarantee: { type: 'pure', epsilon }, count });
const approx = (epsilon, delta, count = 1) => ({ guarantee: { type: 'approx', epsilon, delta }, count });
const gaussian = { type: 'gaussian', sigma: 2, sensitivity: 1 };
const subsampled = { type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1 } };
const hospitals = { databases: [{ guarantee: { type: 'approx', epsilon: 0.05, delta: 1e-9 }, count: 100 }] };

const requests = [
  { op: 'group', k: 4, guarantee: { type: 'pure', epsilon: 0.5 } },
  { op: 'group', k: 4, guarantee: { type: 'approx', epsilon: 0.5, delta: 1e-6 } },
  { op: 'group', k: 4, guarantee: { type: 'zcdp', rho: 0.1 } },
  { op: 'group', k: 2, guarantee: { type: 'rdp', orders: [4, 8, 16], epsilons: [0.1, 0.2, 0.4] } },
  { op: 'group', k: 4, mechanism: { type: 'laplace', scale: 2 } },
  { op: 'group', k: 4, delta: 1e-5, mechanism: gaussian },
  {
    op: 'group',
    k: 3,
    relation: 'substitute',
    mechanism: { type: 'randomized_response', noise_parameter: 0.5, num_buckets: 2 },
  },
  { op: 'group', k: 3, mechanism: { type: 'discrete_laplace', scale: 2 } },
  { op: 'group', k: 3, delta: 1e-5, mechanism: { type: 'discrete_gaussian', sigma: 5 } },
  { op: 'group', k: 3, mechanism: { type: 'permute_and_flip', epsilon: 0.5 } },
  { op: 'group', k: 3, delta: 1e-5, mechanism: { type: 'tree_aggregation', noise_multiplier: 2, steps: 100 } },
  {
    op: 'group',
    k: 3,
    delta: 1e-5,
    relation: 'substitute',
    mechanism: { type: 'sampled_without_replacement', dataset_size: 1000, sample_size: 10, mechanism: gaussian },
  },
  { op: 'group', k: 3, mechanism: { ...subsampled, mechanism: { type: 'exponential', epsilon: 1 } } },
  { op: 'compose', method: 'basic', items: [pure(0.1, 10)] },
  { op: 'compose', method: 'parallel', items: [pure(0.1, 10)] },
  { op: 'compose', method: 'advanced', variant: 'dwork_rothblum_vadhan', delta: 1e-5, items: [pure(0.1, 10)] },
  { op: 'compose', method: 'advanced', variant: 'kairouz', delta: 1e-5, items: [pure(0.1, 10)] },
  { op: 'compose', method: 'optimal', delta: 1e-5, items: [pure(0.1, 10)] },
  { op: 'compose', method: 'zcdp', delta: 1e-5, items: [{ mechanism: gaussian, count: 10 }] },
  { op: 'compose', method: 'pld', delta: 1e-5, items: [{ mechanism: subsampled, count: 100 }] },
  { op: 'compose', method: 'pld', delta: 1e-5, items: [approx(0.1, 1e-8, 3), approx(0.2, 1e-8, 2)] },
  { op: 'compose', method: 'rdp', delta: 1e-5, items: [{ mechanism: subsampled, count: 100 }] },
  { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6 },
  { op: 'convert', guarantee: { type: 'zcdp', rho: 0.5 }, to: 'approx', delta: 1e-6, conversion: 'bun_steinke' },
  { op: 'convert', guarantee: { type: 'pure', epsilon: 1 }, to: 'zcdp' },
  { op: 'split', method: 'basic', target: { epsilon: 1, delta: 1e-5 }, count: 10 },
  { op: 'split', method: 'advanced', variant: 'kairouz', target: { epsilon: 1, delta: 1e-5 }, count: 10 },
  { op: 'split', method: 'optimal', target: { epsilon: 1, delta: 1e-5 }, count: 10 },
  { op: 'split', method: 'zcdp', target: { epsilon: 1, delta: 1e-5 }, count: 10 },
  {
    op: 'calibrate',
    mechanism: { type: 'gaussian' },
    unknown: 'sigma',
    count: 10,
    method: 'analytic',
    target: { epsilon: 1, delta: 1e-5 },
  },
  {
    op: 'calibrate',
    mechanism: { type: 'gaussian' },
    unknown: 'sigma',
    count: 10,
    method: 'zcdp',
    target: { epsilon: 1, delta: 1e-5 },
  },
  {
    op: 'calibrate',
    mechanism: { type: 'laplace' },
    unknown: 'scale',
    count: 10,
    method: 'optimal',
    target: { epsilon: 1, delta: 1e-5 },
  },
  { op: 'rdp', items: [{ mechanism: subsampled, count: 100 }], orders: [2, 4.5, 8] },
  {
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    steps: 100,
    group_size: 1,
    noise_multiplier: 1,
    delta: 1e-5,
  },
  {
    op: 'dpsgd',
    sampling: 'fixed_batch',
    dataset_size: 60000,
    batch_size: 256,
    steps: 100,
    group_size: 3,
    noise_multiplier: 1.1,
    delta: 1e-5,
  },
  {
    op: 'dpsgd',
    sampling: 'poisson',
    sampling_rate: 0.01,
    steps: 100,
    group_size: 2,
    delta: 1e-5,
    target: { epsilon: 2 },
  },
  { op: 'databases', method: 'optimal', delta: 1e-5, ...hospitals, constraint: { type: 'at_most', m: 10 } },
  {
    op: 'databases',
    method: 'basic',
    databases: [{ guarantee: { type: 'pure', epsilon: 0.1 }, count: 40, queries: 12 }],
    constraint: { type: 'exactly_one' },
  },
  { op: 'databases', method: 'optimal', delta: 1e-5, ...hospitals, adversary: 'uninformative' },
  {
    op: 'databases',
    method: 'basic',
    databases: [{ guarantee: { type: 'pure', epsilon: 0.1 }, count: 20 }],
    adversary: 'uninformative',
  },
  { op: 'groupwise_privacy', rho: 0.005, relative_error: 0.3, counts: [1000], delta: 1e-6 },
  { op: 'groupwise_simulate', rho: 0.005, relative_error: 0.3, count: 1000, samples: 1000 },
  {
    op: 'audit',
    evidence: { kind: 'counts', true_positives: 900, positives: 1000, false_positives: 10, negatives: 1000 },
    claim: { type: 'approx', epsilon: 3, delta: 1e-5 },
  },
  { op: 'audit', evidence: { kind: 'one_run', canaries: 1000, guesses: 100, correct: 100 } },
  {
    op: 'audit',
    evidence: { kind: 'scores', member_scores: [3, 2, 1], nonmember_scores: [0, 1] },
    claim: { type: 'gdp', mu: 1 },
  },
];

/** Every object in `value` (itself included) with its dotted path. */
function* objectsOf(value, path = '') {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* objectsOf(item, `${path}.${i}`);
  } else if (value && typeof value === 'object') {
    yield [path || '(result)', value];
    for (const [key, item] of Object.entries(value)) yield* objectsOf(item, path ? `${path}.${key}` : key);
  }
}

function* stringsOf(value) {
  if (typeof value === 'string') yield value;
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* stringsOf(item);
}

test('every citation carries the BibTeX key of each work it cites, and the page has their entries', () => {
  const keysSeen = new Set();
  for (const request of requests) {
    const result = okResult(calc.compute(request));
    let cited = 0;
    for (const [path, object] of objectsOf(result)) {
      if (typeof object.citation !== 'string') continue;
      cited += 1;
      const label = `${request.op}${request.method ? `/${request.method}` : ''} ${path}`;
      const keys = keysOf(object.citation_key);
      // One key per work: the works of a citation are joined by "; ".
      assert.equal(keys.length, object.citation.split('; ').length, `${label}: ${object.citation} ↔ ${keys}`);
      assert.equal(
        typeof object.citation_key === 'string',
        keys.length === 1,
        `${label}: one key is a string, several a list`,
      );
      for (const key of keys) {
        assert.ok(hasEntry(key), `${label}: no BibTeX entry for "${key}"`);
        keysSeen.add(key);
      }
    }
    assert.ok(cited > 0, `${request.op}: the result cites its method`);
  }
  assert.ok(keysSeen.size >= 18, `${keysSeen.size} works cited`);
});

test('results speak of papers, never of internal document names', () => {
  for (const request of requests) {
    const result = okResult(calc.compute(request));
    for (const text of stringsOf(result)) {
      assert.doesNotMatch(text, /\bseed\b|\bissue \d/i, `${request.op}: ${text}`);
    }
  }
});
