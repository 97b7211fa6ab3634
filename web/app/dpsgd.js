// The DP-SGD section as sections.js registers it: its question ("How does your training loop draw
// batches?", each sampler named as the libraries people train with name it), its form and its
// defaults. Its requests are dpsgd-requests.js (shared with <dp-calculator>, which also maps each
// loop to its op 'dpsgd' sampler); the page answers them in dpsgd-update.js, which it loads after
// its first answer (sections.js, lazy-update.js).

/**
 * A link's own sampling rate (the hidden `sampling_rate`) holds until the loop, the dataset or the
 * batch size is edited: from then on Poisson sampling runs at q = B/N, as the form shows it.
 */
function forgetLinkRate(form) {
  const rate = form.elements.sampling_rate;
  const forget = () => {
    if (rate.value === '') return;
    rate.value = '';
    rate.dispatchEvent(new Event('input', { bubbles: true }));
  };
  for (const name of ['sampling', 'dataset_size', 'batch_size']) form.elements[name].addEventListener('input', forget);
}

/** The question modes of the section's "Question" selector that solve for an unknown. */
const kSolveModes = {
  most_steps: 'most steps for a target ε',
  largest_rate: 'largest batch size for a target ε',
  largest_group: 'largest group for a target ε',
};

export default {
  name: 'dpsgd',
  title: 'DP-SGD groups',
  // The nav's name for it: what it answers.
  nav: 'A training run (DP-SGD)',
  question: [
    'You train with DP-SGD, drawing batches the way your training loop does, and one person may own ',
    { em: 'k' },
    ' training examples. What is their guarantee under that sampler, and how much noise reaches a target ε?',
  ],
  form: [
    {
      legend: 'Training',
      fields: [
        {
          name: 'sampling',
          label: 'How does your training loop draw batches?',
          type: 'choice',
          value: 'poisson',
          wide: true,
          // Short enough for a phone's width; the hint says what each is called elsewhere.
          options: [
            ['poisson', 'Poisson (poisson_sampling=True)'],
            ['shuffle', 'DataLoader(shuffle=True)'],
            ['same_order', 'DataLoader(shuffle=False)'],
            ['truncated_poisson', 'Truncated Poisson (batch cap C)'],
            ['balls_and_bins', 'Balls-and-bins'],
            ['cyclic_poisson', 'Cyclic Poisson (b bands)'],
            ['fixed_batch', 'Fixed-size batch, no replacement'],
          ],
          hint:
            'Poisson: Opacus poisson_sampling=True, dp_accounting and JAX Privacy Poisson sampling; ' +
            'PyTorch DataLoader(shuffle=True): re-shuffled each epoch, as Opacus with poisson_sampling=False; ' +
            'shuffle=False: the same order every epoch; truncated Poisson: Poisson batches cut to at most C ' +
            "(dp_accounting's TruncatedSubsampledGaussianDpEvent); balls-and-bins: each example in one random " +
            'step of each epoch; cyclic Poisson: b bands used in turn (banded matrix factorization)',
        },
        {
          name: 'dataset_size',
          label: 'Dataset size',
          symbol: 'N',
          type: 'count',
          value: '60000',
        },
        {
          name: 'batch_size',
          label: 'Batch size',
          symbol: 'B',
          type: 'count',
          value: '256',
          shownWhen: { mode: ['forward', 'calibrate', 'most_steps', 'largest_group'] },
          hint: 'the expected batch for the Poisson samplers (q = B/N, shown with the answer)',
        },
        {
          name: 'max_batch_size',
          label: 'Largest batch',
          symbol: 'C',
          type: 'count',
          value: '384',
          shownWhen: { sampling: ['truncated_poisson'] },
          hint: 'a Poisson batch above this size is cut down to it',
        },
        {
          name: 'bands',
          label: 'Bands',
          symbol: 'b',
          type: 'count',
          value: '4',
          shownWhen: { sampling: ['cyclic_poisson'] },
          hint: 'the data in b parts used in turn, Poisson sampling inside the part',
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
          hint: 'steps = epochs · N / B (rounded up; ⌊N/B⌋ an epoch for shuffling and balls-and-bins)',
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
          label: 'Max examples per user',
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
          value: 'zero_out',
          more: true,
          options: [
            ['zero_out', "zero out the group's gradients"],
            ['add_remove', 'add or remove the group'],
            ['substitute', 'replace the group'],
          ],
        },
        {
          name: 'kmax',
          label: 'Plot up to group size',
          type: 'count',
          value: '5',
          // Sommer's figures: for the samplers whose step is one Gaussian mixture.
          shownWhen: { sampling: ['poisson', 'fixed_batch'] },
          more: true,
        },
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
        {
          preset: 'MNIST re-shuffled each epoch (N = 60000, B = 256, σ = 1, 10 epochs, k = 1)',
          values: {
            sampling: 'shuffle',
            dataset_size: '60000',
            batch_size: '256',
            duration: 'epochs',
            epochs: '10',
            mode: 'forward',
            noise_multiplier: '1',
            delta: '1e-5',
            group_size: '1',
            kmax: '1',
            relation: 'zero_out',
          },
        },
      ],
    },
    {
      // Poisson sampling at a rate q of its own, as links of 0.2.0 and earlier gave it (their default
      // 0.01: versions.js); blank, Poisson sampling runs at q = B/N (dpsgd-requests.js).
      legend: 'Sampling rate (links of earlier versions)',
      hidden: true,
      fields: [{ name: 'sampling_rate', label: 'Sampling rate', symbol: 'q', type: 'number', value: '' }],
    },
  ],
  setup: forgetLinkRate,
};
