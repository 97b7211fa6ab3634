// The Noise calibration section as sections.js registers it: its question, its form and its defaults.
// Its requests are calibrate-requests.js (shared with <dp-calculator>); the page answers them in
// calibrate-update.js, which it loads after its first answer (sections.js, lazy-update.js).
import { pickedField } from './picked-mechanism.js';

export default {
  name: 'calibrate',
  title: 'Noise calibration',
  // The nav's name for it: what it answers.
  nav: 'The noise for a target',
  question: [
    'You need a target (ε, δ) over ',
    { em: 'k' },
    ' uses of a noise mechanism. How much noise do you need? Each answer is the ' +
      'smallest noise whose sound bound meets the target, so composing it back never exceeds your target.',
  ],
  form: [
    {
      legend: 'Mechanism',
      fields: [
        {
          name: 'mechanism',
          label: 'Noise',
          type: 'choice',
          value: 'gaussian',
          wide: true,
          options: [
            ['gaussian', 'Gaussian: find σ'],
            ['laplace', 'Laplace: find the scale b'],
            ['dpsgd', 'DP-SGD: find the noise multiplier'],
            ['catalog', 'Any mechanism: find its noise'],
          ],
        },
        {
          name: 'sensitivity',
          label: 'Sensitivity, or clip norm C in DP-SGD',
          symbol: 'Δ',
          type: 'number',
          value: '1',
          hint: 'ℓ2 for Gaussian noise, ℓ1 for Laplace; in DP-SGD σ = noise multiplier × clip norm',
          shownWhen: { mechanism: ['gaussian', 'laplace', 'dpsgd'] },
        },
        {
          name: 'rate',
          label: 'Sampling rate',
          symbol: 'q',
          type: 'number',
          value: '0.01',
          shownWhen: { mechanism: ['dpsgd'] },
          hint: 'each example is in a batch with probability q (batch size / dataset size)',
        },
        { name: 'count', label: 'Number of uses (training steps)', symbol: 'k', type: 'count', value: '10' },
        {
          preset: 'DP-SGD, 1000 steps at q = 0.01',
          values: { mechanism: 'dpsgd', rate: '0.01', count: '1000', epsilon: '1', delta: '1e-5' },
        },
      ],
    },
    {
      // Shown for the "any mechanism" choice (calibrate-any.js).
      legend: 'Any mechanism',
      slot: 'picked',
      hidden: true,
      fields: [pickedField('any_mechanism', 'Mechanism')],
    },
    {
      legend: 'Target',
      fields: [
        { name: 'epsilon', label: 'Target', symbol: 'ε', type: 'number', value: '1' },
        { name: 'delta', label: 'Target', symbol: 'δ', type: 'number', value: '1e-5' },
      ],
    },
  ],
};
