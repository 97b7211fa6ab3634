// The Group-wise relative error section as sections.js registers it: its question, its form and its defaults.
// Its requests are groupwise-requests.js (shared with <dp-calculator>); the page answers them in
// groupwise-update.js, which it loads after its first answer (sections.js, lazy-update.js).

export default {
  name: 'groupwise',
  title: 'Group-wise relative error',
  // The nav's name for it: what it answers.
  nav: 'Groups of very different sizes',
  question: [
    'Counts of groups of very different sizes are released with Algorithm 1 of Pujol & Desfontaines (2023): Gaussian noise at ',
    'ρ-zCDP, then more Gaussian noise with standard deviation r times the noisy count, so every group sees about the same relative error r. ' +
      'Everyone is proven ρ-zCDP. How much better do large groups do? Here: the output distribution, and a numerical estimate per group size.',
  ],
  form: [
    {
      legend: 'Mechanism',
      fields: [
        {
          name: 'rho',
          label: 'First stage',
          symbol: 'ρ',
          type: 'number',
          value: '0.005',
          hint: 'zCDP parameter; σ² = 1/(2ρ) (0.005: σ² = 100, as in Pujol & Desfontaines’ Figure 1)',
        },
        {
          name: 'relative_error',
          label: 'Relative error',
          symbol: 'r',
          type: 'number',
          value: '0.3',
          hint: 'the second stage adds noise of sd r·|X|',
        },
        {
          name: 'delta',
          label: 'For ε at',
          symbol: 'δ',
          type: 'number',
          value: '1e-6',
          hint: 'leave empty for Rényi only',
        },
      ],
    },
    {
      legend: 'Groups',
      fields: [
        {
          name: 'counts',
          label: 'Group sizes',
          type: 'text',
          value: '10, 100, 1000, 10000, 100000',
          wide: true,
          hint: 'true counts, separated by commas',
        },
        { name: 'group', label: 'Group shown in the plots', symbol: 'x', type: 'count', value: '10000', more: true },
        { name: 'samples', label: 'Simulated outputs', type: 'count', value: '1000000', more: true },
        { name: 'seed', label: 'Random seed', type: 'count', value: '1', more: true },
        { preset: 'Small groups', values: { counts: '0, 1, 10, 30, 100', group: '10' } },
      ],
    },
  ],
};
