// The Budget split section as sections.js registers it: its question, its form and its defaults.
// Its requests are split-requests.js (shared with <dp-calculator>); the page answers them in
// split-update.js, which it loads after its first answer (sections.js, lazy-update.js).

export default {
  name: 'split',
  title: 'Budget split',
  // The nav's name for it: what it answers.
  nav: 'Split a budget over steps',
  question: [
    'You have a total budget (ε, δ) and ',
    { em: 'k' },
    ' steps. How large may each step’s ε be? Each answer is found by ' +
      'bisection on the sound forward bound, so composing it back never exceeds your target.',
  ],
  form: [
    {
      legend: 'Target',
      fields: [
        { name: 'epsilon', label: 'Total', symbol: 'ε', type: 'number', value: '1' },
        { name: 'delta', label: 'Total', symbol: 'δ', type: 'number', value: '1e-5' },
        { name: 'count', label: 'Number of steps', symbol: 'k', type: 'count', value: '100' },
      ],
    },
  ],
};
