// The DP-SGD with groups section as sections.js registers it: its question, its form and its defaults.
// Its requests are dpsgd-requests.js (shared with <dp-calculator>); the page answers them in
// dpsgd-update.js, which it loads after its first answer (sections.js, lazy-update.js).
import { parseNumber } from './format.js';

/** The question modes of the section's "Question" selector that solve for an unknown. */
const kSolveModes = {
  most_steps: 'most steps for a target ε',
  largest_rate: 'largest batch or rate for a target ε',
  largest_group: 'largest group for a target ε',
};

/**
 * Switching from fixed-size batches to Poisson sampling keeps the same sampling rate, q = B/N, so
 * that the two analyses compare the same training.
 */
function carrySamplingRate(form) {
  // With two choices, a change to Poisson sampling is a change from fixed-size batches.
  form.elements.sampling.addEventListener('change', () => {
    if (form.elements.sampling.value !== 'poisson') return;
    const [batch, dataset] = [form.elements.batch_size, form.elements.dataset_size].map((input) =>
      parseNumber(input.value),
    );
    if (!(batch > 0 && dataset >= batch)) return;
    form.elements.sampling_rate.value = String(batch / dataset);
    form.elements.sampling_rate.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export default {
  name: 'dpsgd',
  title: 'DP-SGD groups',
  question: [
    'You train with DP-SGD and one person may own ',
    { em: 'k' },
    ' training examples. What is their guarantee, and how much noise reaches a target ε?',
  ],
  form: [
    {
      legend: 'Training',
      fields: [
        {
          name: 'sampling',
          label: 'Batches',
          type: 'choice',
          value: 'poisson',
          wide: true,
          options: [
            ['poisson', 'Poisson sampling (proven)'],
            ['fixed_batch', 'Fixed-size batches (unproven)'],
          ],
        },
        {
          name: 'dataset_size',
          label: 'Dataset size',
          symbol: 'N',
          type: 'count',
          value: '60000',
          shownWhen: { sampling: ['fixed_batch'] },
        },
        {
          name: 'batch_size',
          label: 'Batch size',
          symbol: 'B',
          type: 'count',
          value: '256',
          shownWhen: { sampling: ['fixed_batch'], mode: ['forward', 'calibrate', 'most_steps', 'largest_group'] },
        },
        {
          name: 'sampling_rate',
          label: 'Sampling rate',
          symbol: 'q',
          type: 'number',
          value: '0.01',
          shownWhen: { sampling: ['poisson'], mode: ['forward', 'calibrate', 'most_steps', 'largest_group'] },
          hint: 'each example is in a batch independently with this probability',
        },
        {
          name: 'duration',
          label: 'Training length in',
          type: 'choice',
          value: 'epochs',
          options: [
            ['epochs', 'epochs'],
            ['steps', 'steps'],
          ],
        },
        {
          name: 'epochs',
          label: 'Epochs',
          type: 'number',
          value: '60',
          shownWhen: { duration: ['epochs'], mode: ['forward', 'calibrate', 'largest_rate', 'largest_group'] },
          hint: 'steps = epochs · N / B, rounded up',
        },
        {
          name: 'steps',
          label: 'Steps',
          symbol: 'T',
          type: 'count',
          value: '16384',
          shownWhen: { duration: ['steps'], mode: ['forward', 'calibrate', 'largest_rate', 'largest_group'] },
        },
      ],
    },
    {
      legend: 'Noise',
      fields: [
        {
          name: 'mode',
          label: 'Question',
          type: 'choice',
          value: 'forward',
          options: [
            ['forward', 'ε for this noise'],
            ['calibrate', 'noise for a target ε'],
            ...Object.entries(kSolveModes),
          ],
        },
        {
          name: 'noise_multiplier',
          label: 'Noise multiplier',
          symbol: 'σ',
          type: 'number',
          value: '1.1',
          shownWhen: { mode: ['forward', 'most_steps', 'largest_rate', 'largest_group'] },
          hint: 'noise standard deviation over the clipping norm',
        },
        {
          name: 'target_epsilon',
          label: 'Target',
          symbol: 'ε',
          type: 'number',
          value: '8',
          shownWhen: { mode: ['calibrate', 'most_steps', 'largest_rate', 'largest_group'] },
        },
      ],
    },
    {
      legend: 'Group and privacy',
      fields: [
        {
          name: 'group_size',
          label: 'Examples per person',
          symbol: 'k',
          type: 'count',
          value: '4',
          hint: 'the group to protect',
          shownWhen: { mode: ['forward', 'calibrate', 'most_steps', 'largest_rate'] },
        },
        { name: 'delta', label: 'Target', symbol: 'δ', type: 'number', value: '1e-5' },
        {
          name: 'relation',
          label: 'Neighbours',
          type: 'choice',
          value: 'add_remove',
          options: [
            ['add_remove', 'add or remove the group'],
            ['substitute', 'replace the group'],
          ],
        },
        { name: 'kmax', label: 'Plot up to group size', type: 'count', value: '5' },
        {
          preset: 'MNIST, fixed-size batches (N = 60000, B = 256, σ = 1.1, 60 epochs, k = 1…8)',
          values: {
            sampling: 'fixed_batch',
            dataset_size: '60000',
            batch_size: '256',
            duration: 'epochs',
            epochs: '60',
            mode: 'forward',
            noise_multiplier: '1.1',
            delta: '1e-5',
            group_size: '8',
            kmax: '8',
            relation: 'add_remove',
          },
        },
      ],
    },
  ],
  setup: carrySamplingRate,
};
