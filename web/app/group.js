// The Group privacy section (the page's default one) as sections.js registers it: its question, its
// form and its defaults. Its requests are group-requests.js (shared with <dp-calculator>); the page
// answers them in group-update.js.
import { pickedField } from './picked-mechanism.js';

export default {
  name: 'group',
  title: 'Group privacy',
  // The nav's name for it: what it answers.
  nav: 'A person with several records',
  question: [
    'A person contributes up to ',
    { em: 'k' },
    ' records. What does the guarantee of one record give that person?',
  ],
  form: [
    {
      legend: 'Group',
      fields: [
        {
          name: 'question',
          label: 'Question',
          type: 'choice',
          value: 'guarantee',
          wide: true,
          options: [
            ['guarantee', 'guarantee for a group of k'],
            ['largest_k', 'largest group for a target'],
          ],
        },
        {
          name: 'k',
          label: 'Group size',
          symbol: 'k',
          type: 'count',
          value: '4',
          hint: 'records one person contributes',
          shownWhen: { question: ['guarantee'] },
        },
        {
          name: 'target_epsilon',
          label: 'Target',
          symbol: 'ε',
          type: 'number',
          value: '4',
          shownWhen: { question: ['largest_k'] },
        },
        {
          name: 'target_delta',
          label: 'Target',
          symbol: 'δ',
          type: 'number',
          value: '1e-4',
          shownWhen: { question: ['largest_k'] },
          hint: 'for (ε, δ) guarantees and the Gaussian mechanism',
        },
        {
          name: 'kmax',
          label: 'Plot up to group size',
          type: 'count',
          value: '16',
          shownWhen: { question: ['guarantee'] },
          more: true,
        },
      ],
    },
    {
      legend: 'Guarantee per record',
      fields: [
        { name: 'epsilon', label: 'Pure or approximate DP', symbol: 'ε', type: 'number', value: '0.5' },
        { name: 'delta', label: 'Approximate DP', symbol: 'δ', type: 'number', value: '1e-6' },
        { name: 'rho', label: 'Zero-concentrated DP', symbol: 'ρ', type: 'number', value: '0.125' },
      ],
    },
    {
      legend: 'Or a known mechanism',
      more: true,
      fields: [
        {
          name: 'sensitivity',
          label: 'Sensitivity per record',
          symbol: 'Δ',
          type: 'number',
          value: '1',
          hint: 'how much one record can change the query',
        },
        { name: 'scale', label: 'Laplace noise scale', symbol: 'b', type: 'number', value: '2' },
        {
          name: 'sigma',
          label: 'Gaussian noise std. dev.',
          symbol: 'σ',
          type: 'number',
          value: '2',
          hint: 'in the units of the query',
        },
        { name: 'gaussian_delta', label: 'Gaussian: target', symbol: 'δ', type: 'number', value: '1e-5' },
      ],
    },
    {
      legend: 'Or any mechanism the calculator knows',
      more: true,
      slot: 'picked',
      fields: [pickedField('mechanism', 'Mechanism')],
    },
  ],
};
