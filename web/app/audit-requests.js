// The Audit section's requests, shared by the page (audit-update.js) and the <dp-calculator>
// element: op 'audit' on the evidence entered (a membership test's counts, or its rates with the
// totals; one run with canaries; scores), with the claim to check, and op 'tradeoff' of that claim,
// whose curve the page draws with the observed rates and their Clopper–Pearson box.
import { numberText, parseNumber } from './format.js';
import { givenNumber } from './headline.js';
import { parseClaim, parseScores } from './audit-inputs.js';

// A Gaussian mechanism of sensitivity 1 and noise σ = 1/μ is exactly μ-GDP (Dong, Roth, Su 2019,
// Thm 2.7): its trade-off curve, drawn for a μ-GDP claim, does not depend on the δ the group op also
// reports its ε at.
const kGdpDelta = 1e-5;

/** Counts from rates: members caught rounded down, non-members flagged rounded up (never overstating the attack). */
function countsFromRates(rate, total, direction) {
  const exact = rate * total;
  const nearest = Math.round(exact);
  // A rate typed to its full digits (0.9 × 1000 = 900.0000000000001) is the count it was computed from.
  if (Math.abs(exact - nearest) <= 1e-9 * Math.max(1, Math.abs(exact))) return nearest;
  return direction === 'down' ? Math.floor(exact) : Math.ceil(exact);
}

/** The request's `evidence` for the inputs, and which input each of its fields comes from. */
export function evidenceOf(inputs) {
  const number = (name) => parseNumber(inputs[name]);
  switch (inputs.evidence) {
    case 'rates': {
      const positives = number('positives');
      const negatives = number('negatives');
      return {
        evidence: {
          kind: 'counts',
          true_positives: countsFromRates(number('tpr'), positives, 'down'),
          positives,
          false_positives: countsFromRates(number('fpr'), negatives, 'up'),
          negatives,
        },
        fields: {
          'evidence.true_positives': 'tpr',
          'evidence.positives': 'positives',
          'evidence.false_positives': 'fpr',
          'evidence.negatives': 'negatives',
        },
      };
    }
    case 'one_run':
      return {
        evidence: {
          kind: 'one_run',
          canaries: number('canaries'),
          guesses: number('guesses'),
          correct: number('correct'),
        },
        fields: { 'evidence.canaries': 'canaries', 'evidence.guesses': 'guesses', 'evidence.correct': 'correct' },
      };
    case 'scores': {
      const parsed = parseScores(inputs.scores, inputs.scores_format);
      return {
        evidence: parsed.error
          ? null
          : { kind: 'scores', member_scores: parsed.member_scores, nonmember_scores: parsed.nonmember_scores },
        problem: parsed.error,
        fields: { 'evidence.member_scores': 'scores', 'evidence.nonmember_scores': 'scores' },
      };
    }
    default:
      return {
        evidence: {
          kind: 'counts',
          true_positives: number('true_positives'),
          positives: number('positives'),
          false_positives: number('false_positives'),
          negatives: number('negatives'),
        },
        fields: {
          'evidence.true_positives': 'true_positives',
          'evidence.positives': 'positives',
          'evidence.false_positives': 'false_positives',
          'evidence.negatives': 'negatives',
        },
      };
  }
}

/** `request` without the trade-off it asked for (a section's request carries `explain` for its panel). */
function withoutExplain(request) {
  const { explain, ...plain } = request;
  return explain === undefined ? request : plain;
}

/**
 * The claim of the inputs: { kind, claim (the audit request's field), of (what op 'tradeoff' takes),
 * fields and ofFields (request path → input, in each request) }, or { kind: 'none' }, or { kind, problem } when it cannot be read.
 */
export function claimOf(inputs) {
  const number = (name) => parseNumber(inputs[name]);
  switch (inputs.claim) {
    case 'approx': {
      const epsilon = number('claim_epsilon');
      const delta = number('claim_delta');
      const claim = delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta };
      return {
        kind: 'approx',
        claim,
        of: { guarantee: claim },
        fields: { 'claim.epsilon': 'claim_epsilon', 'claim.delta': 'claim_delta' },
        ofFields: { 'of.guarantee.epsilon': 'claim_epsilon', 'of.guarantee.delta': 'claim_delta' },
      };
    }
    case 'gdp': {
      const mu = number('claim_mu');
      // op 'tradeoff' draws μ-GDP as the Gaussian mechanism of sensitivity 1 and σ = 1/μ.
      const gaussian = mu > 0 && Number.isFinite(mu) ? 1 / mu : Number.NaN;
      return {
        kind: 'gdp',
        claim: { type: 'gdp', mu },
        of: Number.isNaN(gaussian)
          ? null
          : { op: 'group', k: 1, delta: kGdpDelta, mechanism: { type: 'gaussian', sigma: gaussian } },
        fields: { 'claim.mu': 'claim_mu' },
        ofFields: { 'of.mechanism.sigma': 'claim_mu' },
      };
    }
    case 'request': {
      const parsed = parseClaim(inputs.claim_request);
      if (parsed.error)
        return {
          kind: 'request',
          problem: 'No result to check: open this section from another section’s “Audit this claim” link.',
        };
      const claim = withoutExplain(parsed.claim);
      return { kind: 'request', claim, of: claim, fields: {}, ofFields: {} };
    }
    default:
      return { kind: 'none' };
  }
}

/** The confidence as the page says it: 0.95 → "95%". */
export const confidenceText = (confidence) => `${numberText(Number((confidence * 100).toPrecision(10)))}%`;

/** The claim in a paper's words: "(3, 10⁻⁵)-DP", "1.5-GDP", "the result of DP-SGD groups". */
export function claimWords(claim, inputs) {
  if (claim.kind === 'approx') {
    const { epsilon, delta } = claim.claim;
    return delta === undefined ? `${givenNumber(epsilon)}-DP` : `(${givenNumber(epsilon)}, ${givenNumber(delta)})-DP`;
  }
  if (claim.kind === 'gdp') return `${givenNumber(claim.claim.mu)}-GDP`;
  const from = inputs.claim_from.trim();
  return from ? `the result of ${from}` : 'the claimed result';
}

/**
 * The section's requests: the audit (role 'row', the answer; `claimWords`, its claim in words) and, with a claim, the claim's
 * trade-off curve (role 'curve'). Evidence or a claim that cannot be read sends nothing for it;
 * update shows the problem on its field.
 */
export function requests(inputs) {
  const { evidence, fields } = evidenceOf(inputs);
  const claim = claimOf(inputs);
  const items = [];
  if (evidence) {
    const request = {
      op: 'audit',
      evidence,
      confidence: parseNumber(inputs.confidence),
      delta: parseNumber(inputs.delta),
      ...(claim.claim ? { claim: claim.claim } : {}),
    };
    items.push({
      id: 'audit',
      role: 'row',
      label: 'Audit',
      request,
      claimWords: claim.claim ? claimWords(claim, inputs) : '',
      fields: { ...fields, confidence: 'confidence', delta: 'delta', ...claim.fields },
    });
  }
  if (claim.of) {
    items.push({
      id: 'claim-curve',
      role: 'curve',
      label: 'The claim’s trade-off curve',
      request: { op: 'tradeoff', of: claim.of },
      fields: claim.ofFields,
    });
  }
  return items;
}
