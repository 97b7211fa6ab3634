// The Several databases section as sections.js registers it: its question, its form and its defaults.
// Its requests are databases-requests.js (shared with <dp-calculator>); the page answers them in
// databases-update.js, which it loads after its first answer (sections.js, lazy-update.js).

function classFieldset(prefix, shown, defaults) {
  const kinds = [
    ['guarantee', '(ε, δ)-DP guarantee'],
    ['laplace', 'Laplace mechanism (b, Δ = 1)'],
    ['gaussian', 'Gaussian mechanism (σ, Δ = 1)'],
  ];
  const kindIs = (values) => ({ [`${prefix}_kind`]: values });
  return {
    legend: shown === 1 ? 'Class 1 of databases' : `Class ${shown} of databases (0 databases: unused)`,
    // A second and third class are for footprints across classes: not what most questions need first.
    ...(shown === 1 ? {} : { more: true, moreDefaults: `class ${shown}: 0 databases (unused)` }),
    fields: [
      { name: `${prefix}_count`, label: 'Identical databases', symbol: 'n', type: 'count', value: defaults.count },
      { name: `${prefix}_queries`, label: 'Releases per database', symbol: 'q', type: 'count', value: '1' },
      { name: `${prefix}_kind`, label: 'Each release', type: 'choice', value: 'guarantee', options: kinds },
      {
        name: `${prefix}_epsilon`,
        label: 'Privacy loss per release',
        symbol: 'ε₀',
        type: 'number',
        value: defaults.epsilon,
        shownWhen: kindIs(['guarantee']),
      },
      {
        name: `${prefix}_delta`,
        label: 'Failure probability per release',
        symbol: 'δ₀',
        type: 'number',
        value: defaults.delta,
        shownWhen: kindIs(['guarantee']),
      },
      {
        name: `${prefix}_scale`,
        label: 'Laplace noise scale',
        symbol: 'b',
        type: 'number',
        value: '20',
        shownWhen: kindIs(['laplace']),
      },
      {
        name: `${prefix}_sigma`,
        label: 'Gaussian noise std. dev.',
        symbol: 'σ',
        type: 'number',
        value: '30',
        shownWhen: kindIs(['gaussian']),
      },
    ],
  };
}

const unused = { b_count: '0', c_count: '0' };

const guarantee = (prefix, epsilon, delta) => ({
  [`${prefix}_kind`]: 'guarantee',
  [`${prefix}_epsilon`]: epsilon,
  [`${prefix}_delta`]: delta,
  [`${prefix}_queries`]: '1',
});

export default {
  name: 'databases',
  title: 'Several databases',
  // The nav's name for it: what it answers.
  nav: 'Several databases',
  question:
    'Releases are made on many databases (hospitals, subsidiaries, the columns of a table), and one person can only be in some ' +
    'of them. Classic composition charges every release to everyone; the generalized composition experiment charges only the ' +
    'databases a person can be in (at most m, exactly one, or one family of classes), and against an adversary who only knows ' +
    '“in at least one” about half. Every number is an upper bound over every footprint the constraint allows.',
  form: [
    classFieldset('a', 1, { count: '1000', epsilon: '0.05', delta: '1e-9' }),
    classFieldset('b', 2, { count: '0', epsilon: '0.05', delta: '1e-9' }),
    classFieldset('c', 3, { count: '0', epsilon: '0.05', delta: '1e-9' }),
    {
      legend: 'Who can be where',
      fields: [
        {
          name: 'constraint',
          label: 'A person is in',
          type: 'choice',
          value: 'at_most',
          wide: true,
          options: [
            ['none', 'any of the databases (classic)'],
            ['at_most', 'at most m of the databases'],
            ['exactly_one', 'exactly one of the databases'],
            ['families', 'one family of classes'],
          ],
        },
        {
          name: 'm',
          label: 'At most',
          symbol: 'm',
          type: 'count',
          value: '365',
          shownWhen: { constraint: ['at_most'] },
        },
        {
          name: 'families',
          label: 'Families of classes',
          type: 'text',
          value: '1+2, 1+3',
          shownWhen: { constraint: ['families'] },
          hint: 'class numbers joined by +, families separated by commas',
        },
        {
          name: 'neighbours',
          label: 'Neighbours',
          type: 'choice',
          value: 'unbounded',
          more: true,
          options: [
            ['unbounded', 'unbounded: added or removed'],
            ['bounded', 'bounded: replaced'],
          ],
          hint: 'what happens to the person’s record',
        },
        {
          name: 'adversary',
          label: 'Adversary',
          type: 'choice',
          value: 'worst_case',
          more: true,
          options: [
            ['worst_case', 'worst case'],
            ['uninformative', 'uninformative prior'],
          ],
          hint: 'uninformative: it only asks “in none” against “in at least one”',
        },
      ],
    },
    {
      legend: 'Composition',
      fields: [
        {
          name: 'method',
          label: 'Method',
          type: 'choice',
          value: 'optimal',
          more: true,
          options: [
            ['basic', 'Basic'],
            ['advanced_kov', 'Advanced (Kairouz et al.)'],
            ['advanced_drv', 'Advanced (Dwork et al.)'],
            ['optimal', 'Optimal (identical releases)'],
            ['zcdp', 'zCDP'],
            ['pld', 'PLD (numeric)'],
          ],
        },
        { name: 'delta', label: 'Target total', symbol: 'δ', type: 'number', value: '1e-5' },
        {
          preset: 'Hospitals: 1000, at most 365 per person',
          values: {
            ...unused,
            a_count: '1000',
            ...guarantee('a', '0.05', '1e-9'),
            constraint: 'at_most',
            m: '365',
            method: 'optimal',
            delta: '1e-5',
            adversary: 'worst_case',
          },
        },
        {
          preset: 'Subsidiaries: exactly one',
          values: {
            ...unused,
            a_count: '40',
            ...guarantee('a', '0.1', '0'),
            a_queries: '12',
            constraint: 'exactly_one',
            method: 'advanced_kov',
            delta: '1e-6',
            adversary: 'worst_case',
          },
        },
        {
          preset: 'Software features as columns',
          values: {
            a_count: '30',
            ...guarantee('a', '0.1', '1e-8'),
            b_count: '12',
            ...guarantee('b', '0.1', '1e-8'),
            c_count: '20',
            ...guarantee('c', '0.1', '1e-8'),
            constraint: 'families',
            families: '1+2, 1+3',
            method: 'advanced_kov',
            delta: '1e-5',
            adversary: 'worst_case',
          },
        },
      ],
    },
  ],
};
