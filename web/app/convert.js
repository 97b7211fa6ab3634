// The Conversions section as sections.js registers it: its question, its form and its defaults.
// Its requests are convert-requests.js (shared with <dp-calculator>); the page answers them in
// convert-update.js, which it loads after its first answer (sections.js, lazy-update.js).

export default {
  name: 'convert',
  title: 'Conversions',
  // The nav's name for it: what it answers.
  nav: 'Convert between definitions',
  question: 'Translate a guarantee between definitions: zCDP to (ε, δ) by two conversions, and pure ε-DP to zCDP.',
  form: [
    {
      legend: 'zCDP to (ε, δ)',
      fields: [
        { name: 'rho', label: 'zCDP', symbol: 'ρ', type: 'number', value: '0.5' },
        { name: 'delta', label: 'Target', symbol: 'δ', type: 'number', value: '1e-6' },
      ],
    },
    {
      legend: 'Pure DP to zCDP',
      fields: [{ name: 'epsilon', label: 'Pure DP', symbol: 'ε', type: 'number', value: '1' }],
    },
  ],
};
