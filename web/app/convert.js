// The Conversions section as sections.js registers it: its question, its form and its defaults.
// Its answers are computed by convert-update.js, which the page loads after its first answer (lazy-update.js).
import { lazyUpdate } from './lazy-update.js';

export default {
  name: 'convert',
  title: 'Conversions',
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
  update: lazyUpdate(() => import('./later-sections.js'), 'updateConvert'),
};
