// The Audit section as sections.js registers it: from what a membership attack observed to the ε it
// proves (a statistical lower bound, never a guarantee), and whether that refutes a claimed guarantee.
// Its requests are audit-requests.js (shared with <dp-calculator>); the page answers them in
// audit-update.js, which it loads after its first answer (sections.js, lazy-update.js). The defaults
// are the worked example of the audit op (docs/API.md): 900 of 1,000 members and 10 of 1,000
// non-members flagged, against the claim (3, 10⁻⁵)-DP.
import { kMaxClaimLength, kMaxScoresLength, claimProblem } from './audit-inputs.js';

const counts = { evidence: ['counts'] };
const countsOrRates = { evidence: ['counts', 'rates'] };
const rates = { evidence: ['rates'] };
const oneRun = { evidence: ['one_run'] };
const scores = { evidence: ['scores'] };

export default {
  name: 'audit',
  title: 'Audit',
  // The nav's name for it: what it answers.
  nav: 'Audit an attack',
  question:
    'Your membership attack flagged members and non-members (or guessed canaries, or scored them): what ε does that prove, ' +
    'with the confidence you choose, and does it refute the ε claimed for the training? The answer is a statistical ' +
    'lower bound: with that confidence over the experiment, the mechanism is not (ε, δ)-DP for any smaller ε.',
  form: [
    {
      legend: 'What the attack observed',
      slot: 'scores',
      fields: [
        {
          name: 'evidence',
          label: 'Evidence',
          type: 'choice',
          value: 'counts',
          options: [
            ['counts', 'a membership test’s counts'],
            ['rates', 'its rates, with totals'],
            ['one_run', 'one run with canaries'],
            ['scores', 'scores, pasted as CSV'],
          ],
          hint: 'a test whose threshold was fixed in advance, one training run, or raw scores',
        },
        {
          name: 'true_positives',
          label: 'Members flagged',
          symbol: 'TP',
          type: 'count',
          value: '900',
          shownWhen: counts,
        },
        {
          name: 'tpr',
          label: 'True-positive rate',
          symbol: 'TPR',
          type: 'number',
          value: '0.9',
          shownWhen: rates,
          hint: 'made a count of the members tried, rounded down (never overstating the attack)',
        },
        { name: 'positives', label: 'Members tried', type: 'count', value: '1000', shownWhen: countsOrRates },
        {
          name: 'false_positives',
          label: 'Non-members flagged',
          symbol: 'FP',
          type: 'count',
          value: '10',
          shownWhen: counts,
        },
        {
          name: 'fpr',
          label: 'False-positive rate',
          symbol: 'FPR',
          type: 'number',
          value: '0.01',
          shownWhen: rates,
          hint: 'made a count of the non-members tried, rounded up',
        },
        { name: 'negatives', label: 'Non-members tried', type: 'count', value: '1000', shownWhen: countsOrRates },
        {
          name: 'canaries',
          label: 'Canaries',
          symbol: 'm',
          type: 'count',
          value: '1000',
          shownWhen: oneRun,
          hint: 'each put in the training data with probability ½',
        },
        {
          name: 'guesses',
          label: 'Guesses made',
          symbol: 'r',
          type: 'count',
          value: '100',
          shownWhen: oneRun,
          hint: 'canaries the auditor guessed in or out (abstaining on the rest)',
        },
        { name: 'correct', label: 'Guesses right', symbol: 'v', type: 'count', value: '100', shownWhen: oneRun },
        {
          name: 'scores_format',
          label: 'Columns',
          type: 'choice',
          value: 'labelled',
          options: [
            ['labelled', 'score, label (1 = member)'],
            ['columns', 'member, non-member scores'],
          ],
          shownWhen: scores,
          hint: 'label 1 (or “member”) for a member, 0 (or “non-member”) for a non-member; or one column of each',
        },
        {
          name: 'scores',
          label: 'Scores',
          type: 'hidden',
          value: '',
          maxLength: kMaxScoresLength,
        },
      ],
    },
    {
      legend: 'Confidence',
      fields: [
        {
          name: 'confidence',
          label: 'Confidence',
          type: 'number',
          value: '0.95',
          hint: 'the probability, over the experiment, that the bound holds',
        },
        {
          name: 'delta',
          label: 'Lower bound at',
          symbol: 'δ',
          type: 'number',
          value: '0',
          more: true,
          hint: 'the δ at which ε is bounded from below',
        },
      ],
    },
    {
      legend: 'The claim to check',
      fields: [
        {
          name: 'claim',
          label: 'Claimed guarantee',
          type: 'choice',
          value: 'approx',
          options: [
            ['none', 'none (only the lower bound)'],
            ['approx', 'an (ε, δ)-DP guarantee'],
            ['gdp', 'μ-GDP (Gaussian DP)'],
            ['request', 'the result of another section'],
          ],
        },
        {
          name: 'claim_epsilon',
          label: 'Claimed ε',
          type: 'number',
          value: '3',
          shownWhen: { claim: ['approx'] },
        },
        {
          name: 'claim_delta',
          label: 'Claimed δ',
          type: 'number',
          value: '1e-5',
          shownWhen: { claim: ['approx'] },
        },
        { name: 'claim_mu', label: 'Claimed μ', type: 'number', value: '1', shownWhen: { claim: ['gdp'] } },
        {
          name: 'claim_request',
          label: 'Claimed result',
          type: 'hidden',
          value: '',
          maxLength: kMaxClaimLength,
          check: claimProblem,
        },
        { name: 'claim_from', label: 'Claimed by', type: 'hidden', value: '', maxLength: 60 },
      ],
    },
  ],
};
