// The Composition section as sections.js registers it: its question, its form and its defaults.
// Its requests are composition-requests.js (shared with <dp-calculator>); the page answers them in
// composition-update.js, which it loads after its first answer (sections.js, lazy-update.js).
import { kMaxLedgerLength, ledgerText, parseLedger } from './ledger.js';

/** The question modes of the section's "Question" selector. */
const kCompositionQuestions = [
  ['total', 'total ε for the ledger'],
  ['most_releases', 'most releases for a target'],
];

/**
 * Version-1 links took the subsampled Gaussian's σ as the absolute noise with sensitivity Δ; the
 * same noise is the noise multiplier σ/Δ at clip norm Δ.
 */
function fromLegacy(state) {
  if (state.kind !== 'subsampled_gaussian') return { state };
  const sigma = state.sigma ?? '1';
  const sensitivity = state.sensitivity ?? '1';
  if (Number(sensitivity) === 1) return { state: { ...state, noise_multiplier: sigma, clip_norm: sensitivity } };
  return {
    state: { ...state, noise_multiplier: String(Number(sigma) / Number(sensitivity)), clip_norm: sensitivity },
    note:
      `This link is from an earlier version, where σ = ${sigma} was the absolute noise at sensitivity ${sensitivity}; ` +
      'it is shown as the same noise in DP-SGD units: noise multiplier σ/Δ at clip norm Δ.',
  };
}

export default {
  name: 'composition',
  title: 'Composition',
  // The nav's name for it: what it answers.
  nav: 'A year of releases',
  question: [
    'You keep a ledger of what you release about the same data: each release a known mechanism (any the calculator ' +
      'knows) or an (ε₀, δ₀)-DP guarantee, each run some number of times. What is the total guarantee? Every method ' +
      'below answers where it can and the tightest is marked (parallel composition only applies when the releases touch ' +
      'disjoint records). The numeric method composes privacy loss distributions and brackets the exact answer from both sides.',
  ],
  form: [
    {
      legend: 'Releases',
      slot: 'ledger',
      fields: [
        {
          name: 'ledger',
          label: 'Releases',
          type: 'hidden',
          value: '',
          maxLength: kMaxLedgerLength,
          check: (text) => parseLedger(text).error ?? null,
        },
        {
          name: 'relation',
          label: 'Neighbouring datasets',
          type: 'choice',
          value: 'add_remove',
          options: [
            ['add_remove', 'one record added or removed'],
            ['substitute', 'one record replaced'],
          ],
          hint: 'what one person’s data can change: their record’s presence, or its value',
        },
      ],
    },
    {
      // The one release of links written before the ledger existed (read when `ledger` is blank).
      legend: 'Each mechanism (links of earlier versions)',
      hidden: true,
      fields: [
        {
          name: 'kind',
          label: 'Kind of mechanism',
          type: 'choice',
          value: 'guarantee',
          options: [
            ['guarantee', '(ε₀, δ₀)-DP guarantee'],
            ['laplace', 'Laplace mechanism (b, Δ)'],
            ['gaussian', 'Gaussian mechanism (σ, Δ)'],
            ['subsampled_gaussian', 'DP-SGD step (sampled Gaussian)'],
          ],
        },
        { name: 'epsilon', label: 'Privacy loss per mechanism', symbol: 'ε₀', type: 'number', value: '0.1' },
        { name: 'item_delta', label: 'Failure probability per mechanism', symbol: 'δ₀', type: 'number', value: '0' },
        { name: 'scale', label: 'Laplace noise scale', symbol: 'b', type: 'number', value: '10' },
        { name: 'sigma', label: 'Gaussian noise std. dev.', symbol: 'σ', type: 'number', value: '1' },
        { name: 'noise_multiplier', label: 'Noise multiplier', type: 'number', value: '1' },
        { name: 'clip_norm', label: 'Clip norm', symbol: 'C', type: 'number', value: '1' },
        { name: 'rate', label: 'Sampling rate', symbol: 'q', type: 'number', value: '0.01' },
        { name: 'sensitivity', label: 'Sensitivity', symbol: 'Δ', type: 'number', value: '1' },
        { name: 'count', label: 'Number of mechanisms (steps)', symbol: 'k', type: 'count', value: '100' },
      ],
    },
    {
      legend: 'Total',
      fields: [
        {
          name: 'question',
          label: 'Question',
          type: 'choice',
          value: 'total',
          wide: true,
          options: kCompositionQuestions,
        },
        {
          name: 'solve_release',
          label: 'Release to repeat (its number)',
          type: 'count',
          value: '1',
          shownWhen: { question: ['most_releases'] },
          hint: 'its count is the answer; the other releases run as given',
        },
        {
          name: 'target_epsilon',
          label: 'Target total',
          symbol: 'ε',
          type: 'number',
          value: '1',
          shownWhen: { question: ['most_releases'] },
        },
        { name: 'delta', label: 'Target total', symbol: 'δ', type: 'number', value: '1e-5' },
        {
          name: 'kmax',
          label: 'Plot up to k =',
          type: 'count',
          value: '1000',
          shownWhen: { question: ['total'] },
          more: true,
        },
      ],
    },
    {
      legend: 'Numeric method (PLD)',
      more: true,
      fields: [
        { name: 'pld_step', label: 'Grid step (blank: automatic)', type: 'number', value: '' },
        {
          preset: 'DP-SGD: noise multiplier 1, q = 0.01, 10⁴ steps',
          values: {
            ledger: ledgerText([
              {
                count: '10000',
                spec: {
                  type: 'poisson_subsampled',
                  rate: '0.01',
                  mechanism: { type: 'gaussian', sigma: '1', sensitivity: '1' },
                },
              },
            ]),
            delta: '1e-5',
            kmax: '10000',
          },
        },
      ],
    },
  ],
  fromLegacy,
};
