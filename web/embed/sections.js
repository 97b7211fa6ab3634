// The sections of <dp-calculator> (dp-calculator.js): the page's nine questions in the element's
// compact form. The inputs, their defaults and the requests are the page's own: each section's
// description (web/app/<name>.js: its form and defaults) and its `requests(inputs)` (and `asked`:
// which rows answer the question as asked) in web/app/<name>-requests.js. Here is only how the
// element presents them:
//   title, question  the element's heading and question
//   fields           the attributes shown as fields, in order (an attribute is an input's name with
//                    '-' for '_', or one of `aliases`); a field the page's form hides for the
//                    current choices (its shownWhen) is not shown
//   alternatives     fields that describe alternatives (a guarantee or a mechanism): only those set
//                    are shown, or, with none set, `example`
//   aliases          attribute → input, for attributes named otherwise than the page's input
//   labels           attribute → label, where the page's label does not fit the element
//   implied(given)   inputs the attributes imply (given: input → text of the attributes set), e.g.
//                    `steps` means a training length in steps
//   describe(item)   the answer's words, when the generic ones do not fit (dp-calculator.js answerText)
// Every number comes from the calculator; the element only words it.
import { formatNumber } from '../app/format.js';
import { ledgerText } from '../app/ledger.js';
import { statusWords } from '../app/dpsgd-samplers.js';
import group from '../app/group.js';
import composition from '../app/composition.js';
import split from '../app/split.js';
import calibrate from '../app/calibrate.js';
import convert from '../app/convert.js';
import kmeans from '../app/kmeans.js';
import dpsgd from '../app/dpsgd.js';
import databases from '../app/databases.js';
import groupwise from '../app/groupwise.js';
import * as groupRequests from '../app/group-requests.js';
import * as compositionRequests from '../app/composition-requests.js';
import * as splitRequests from '../app/split-requests.js';
import * as calibrateRequests from '../app/calibrate-requests.js';
import * as convertRequests from '../app/convert-requests.js';
import * as kmeansRequests from '../app/kmeans-requests.js';
import * as dpsgdRequests from '../app/dpsgd-requests.js';
import * as databasesRequests from '../app/databases-requests.js';
import * as groupwiseRequests from '../app/groupwise-requests.js';

const kNoise = { sigma: 'σ', scale: 'b', noise_multiplier: 'noise multiplier' };

/** "σ = 11.798": a noise found by calibration, rounded up (more noise is always safe). */
const noiseText = ({ request, response }) => {
  const { unknown } = request;
  return `${kNoise[unknown] ?? unknown} = ${formatNumber(response.result[unknown], 'up')}`;
};

/** The group shown: what is proven for it, and what is only estimated. */
const groupwiseText = ({ group, response }) => {
  const { result } = response;
  const estimate = result.groups.find((candidate) => candidate.count === group);
  return `proven ρ = ${formatNumber(result.proven.rho)}; estimated ρ ≈ ${formatNumber(estimate.rho_estimate, 'nearest')} (numerical estimate, not a proof)`;
};

/** The loop's guarantee, and its status in words unless it is proven and tight (dpsgd-samplers.js). */
const dpsgdText = ({ response }) => {
  const { result } = response;
  const bound = `ε ≤ ${formatNumber(result.guarantee.epsilon)} at δ = ${formatNumber(result.guarantee.delta, 'down')}`;
  return result.status === 'tight' ? bound : `${bound}; ${statusWords(result)}`;
};

/** A release described by attributes rather than by a ledger: a Gaussian (subsampled at `rate`) or a Laplace mechanism. */
function impliedLedger(given) {
  if (given.ledger !== undefined || given.kind !== undefined) return {};
  const count = given.count ?? '100';
  const sensitivity = given.sensitivity ?? '1';
  if (given.sigma !== undefined) {
    const gaussian = { type: 'gaussian', sigma: given.sigma, sensitivity };
    const spec =
      given.rate === undefined ? gaussian : { type: 'poisson_subsampled', rate: given.rate, mechanism: gaussian };
    return { ledger: ledgerText([{ count, spec }]) };
  }
  if (given.scale !== undefined)
    return { ledger: ledgerText([{ count, spec: { type: 'laplace', scale: given.scale, sensitivity } }]) };
  return {};
}

export const sections = {
  group: {
    description: group,
    shared: groupRequests,
    title: 'Group privacy',
    question: 'What does a per-record guarantee give a person who contributes k records?',
    fields: ['k', 'epsilon', 'delta', 'rho', 'scale', 'sigma', 'gaussian-delta', 'sensitivity'],
    alternatives: ['epsilon', 'delta', 'rho', 'scale', 'sigma', 'gaussian-delta', 'sensitivity'],
    example: ['epsilon', 'delta'],
  },
  composition: {
    description: composition,
    shared: compositionRequests,
    title: 'Composition',
    question: 'What do k mechanisms on the same data give together?',
    fields: ['count', 'epsilon', 'item-delta', 'sigma', 'rate', 'scale', 'sensitivity', 'delta'],
    alternatives: ['epsilon', 'item-delta', 'sigma', 'rate', 'scale', 'sensitivity'],
    example: ['epsilon', 'item-delta'],
    implied: impliedLedger,
  },
  split: {
    description: split,
    shared: splitRequests,
    title: 'Budget split',
    question: 'How large may each of k steps be for a total (ε, δ)?',
    fields: ['epsilon', 'delta', 'count'],
  },
  calibrate: {
    description: calibrate,
    shared: calibrateRequests,
    title: 'Noise calibration',
    question: 'How much noise meets a target (ε, δ) over k uses?',
    fields: ['noise', 'sensitivity', 'rate', 'count', 'epsilon', 'delta'],
    aliases: { noise: 'mechanism' },
    describe: noiseText,
  },
  convert: {
    description: convert,
    shared: convertRequests,
    title: 'Conversions',
    question: 'What (ε, δ) does a ρ-zCDP guarantee give, and what ρ does a pure ε-DP one?',
    fields: ['rho', 'delta', 'epsilon'],
  },
  kmeans: {
    description: kmeans,
    shared: kmeansRequests,
    title: 'DP k-means',
    question:
      'Lloyd’s algorithm with T iterations releases 2T Laplace answers (ℓ1 sensitivity 1: points in the ℓ1 unit ball), each at ε/(2T): what do they compose to?',
    fields: ['epsilon', 'iterations', 'delta'],
  },
  dpsgd: {
    description: dpsgd,
    shared: dpsgdRequests,
    title: 'DP-SGD groups',
    question:
      'DP-SGD: what is the guarantee of a group of k examples, for the way your training loop draws batches (sampling: poisson, shuffle, same_order, truncated_poisson, balls_and_bins, cyclic_poisson, fixed_batch)?',
    fields: [
      'sampling',
      'group-size',
      'dataset-size',
      'batch-size',
      'max-batch-size',
      'bands',
      'epochs',
      'steps',
      'noise-multiplier',
      'delta',
    ],
    implied: (given) => (given.duration === undefined && given.steps !== undefined ? { duration: 'steps' } : {}),
    describe: dpsgdText,
  },
  databases: {
    description: databases,
    shared: databasesRequests,
    title: 'Several databases',
    question: 'Releases on n databases, a person in at most m of them: what is their guarantee?',
    fields: ['count', 'epsilon', 'item-delta', 'm', 'delta'],
    aliases: { count: 'a_count', epsilon: 'a_epsilon', 'item-delta': 'a_delta', queries: 'a_queries' },
  },
  groupwise: {
    description: groupwise,
    shared: groupwiseRequests,
    title: 'Group-wise relative error',
    question:
      'Algorithm 1 of Pujol & Desfontaines (2023): what is proven for a group of x, and what is only estimated?',
    fields: ['rho', 'relative-error', 'count', 'delta'],
    aliases: { count: 'group' },
    labels: { count: 'Group size x' },
    // One group asked for: its size is the only one computed.
    implied: (given) => (given.group !== undefined && given.counts === undefined ? { counts: given.group } : {}),
    describe: groupwiseText,
  },
};
