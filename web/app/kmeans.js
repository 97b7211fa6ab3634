// The DP k-means section (a worked example) as sections.js registers it: its question, its form and its defaults.
// Its requests are kmeans-requests.js (shared with <dp-calculator>); the page answers them in
// kmeans-update.js, which it loads after its first answer (sections.js, lazy-update.js).

export default {
  name: 'kmeans',
  title: 'Worked example: DP k-means',
  // The nav's name for it: what it answers.
  nav: 'Worked example: k-means',
  question: [
    'DP k-means (Lloyd’s algorithm) runs ',
    { em: 'T' },
    ' iterations. Each iteration releases the number of points in ' +
      'every cluster and the sum of their coordinates, each with Laplace noise (ℓ1 sensitivity 1: every point lies in the ℓ1 unit ball, ‖x‖₁ ≤ 1) at ' +
      'ε/(2T), so that basic composition of the 2T releases spends exactly the total ε. The table shows the budget spent after each iteration.',
  ],
  form: [
    {
      legend: 'Algorithm',
      fields: [
        { name: 'epsilon', label: 'Total', symbol: 'ε', type: 'number', value: '1' },
        { name: 'iterations', label: 'Iterations', symbol: 'T', type: 'count', value: '5' },
        { name: 'delta', label: 'For the comparison at', symbol: 'δ', type: 'number', value: '1e-6' },
      ],
    },
  ],
};
