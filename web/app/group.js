// Group privacy: what the guarantee of one record gives a person with k records, under every
// definition, generic and mechanism-aware bounds side by side, and a group of k against k-fold
// composition for the Gaussian mechanism.
import { h, readNumber } from './dom.js';
import { formatNumber } from './format.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { chartFigure } from './chart.js';
import { plotRange } from './range.js';

function inputs(input) {
  return {
    k: input('k'),
    kmax: input('kmax'),
    epsilon: input('epsilon'),
    delta: input('delta'),
    rho: input('rho'),
    sensitivity: input('sensitivity'),
    scale: input('scale'),
    sigma: input('sigma'),
    gaussianDelta: input('gaussian_delta'),
  };
}

function requests(values, k) {
  const gaussian = { type: 'gaussian', sigma: values.sigma, sensitivity: values.sensitivity };
  return {
    pure: { op: 'group', k, guarantee: { type: 'pure', epsilon: values.epsilon } },
    approx: { op: 'group', k, guarantee: { type: 'approx', epsilon: values.epsilon, delta: values.delta } },
    zcdp: { op: 'group', k, guarantee: { type: 'zcdp', rho: values.rho } },
    laplace: { op: 'group', k, mechanism: { type: 'laplace', scale: values.scale, sensitivity: values.sensitivity } },
    gaussian: { op: 'group', k, delta: values.gaussianDelta, mechanism: gaussian },
  };
}

const atDelta = (result) => guaranteeElement(result.guarantee, { vacuous: result.vacuous, deltaIsGiven: true });
const plain = (result) => guaranteeElement(result.guarantee, { vacuous: result.vacuous });
const zcdpThenApprox = (result) =>
  h('span', {}, guaranteeElement({ type: 'zcdp', rho: result.rho }), ' → ', atDelta(result));

const describe = (guarantee) =>
  `ε ≤ ${formatNumber(guarantee.epsilon)} at δ = ${formatNumber(guarantee.delta, 'down')}`;

/** One part of the Gaussian answer (its generic bounds, its composition) shown as a row of its own. */
const partOf = (response, part) => (response.ok ? { ok: true, result: part(response.result) } : response);

async function updateGroup({ calculator, input, isCurrent, results, plots, errors, summary }) {
  const fields = inputs(input);
  const values = Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => name !== 'kmax')
      .map(([name, input]) => [name, readNumber(input)]),
  );
  const k = values.k;
  const base = requests(values, k);
  const names = Object.keys(base);
  const answers = await askAll(
    calculator,
    names.map((name) => base[name]),
  );
  const responses = Object.fromEntries(answers.map((response, i) => [names[i], response]));
  if (!isCurrent()) return;

  const kField = { k: fields.k };
  const mechanismFields = {
    'mechanism.sigma': fields.sigma,
    'mechanism.sensitivity': fields.sensitivity,
    delta: fields.gaussianDelta,
  };
  const rows = [
    {
      id: 'pure',
      label: 'Pure ε-DP',
      formula: formulas.groupPure,
      response: responses.pure,
      render: plain,
      fields: { ...kField, 'guarantee.epsilon': fields.epsilon },
    },
    {
      id: 'approx',
      label: 'Approximate (ε, δ)-DP',
      formula: formulas.groupApprox,
      response: responses.approx,
      render: plain,
      fields: { ...kField, 'guarantee.epsilon': fields.epsilon, 'guarantee.delta': fields.delta },
    },
    {
      id: 'zcdp',
      label: 'ρ-zCDP',
      formula: formulas.groupZcdp,
      response: responses.zcdp,
      render: plain,
      fields: { ...kField, 'guarantee.rho': fields.rho },
    },
    {
      id: 'laplace',
      label: 'Laplace mechanism (b, Δ)',
      formula: formulas.groupLaplace,
      response: responses.laplace,
      render: plain,
      fields: { ...kField, 'mechanism.scale': fields.scale, 'mechanism.sensitivity': fields.sensitivity },
    },
    {
      id: 'gaussian',
      label: 'Gaussian mechanism (σ, Δ): exact',
      formula: formulas.groupGaussianExact,
      response: responses.gaussian,
      render: atDelta,
      note: () => 'mechanism-aware, exact at this δ',
      fields: { ...kField, ...mechanismFields },
    },
    {
      id: 'gaussian-zcdp',
      label: 'Gaussian mechanism via zCDP',
      formula: formulas.groupGaussianZcdp,
      response: partOf(responses.gaussian, (result) => result.generic.zcdp),
      render: zcdpThenApprox,
      fields: { ...kField, ...mechanismFields },
    },
    {
      id: 'gaussian-generic',
      label: 'Gaussian mechanism, generic bound',
      formula: formulas.groupGaussianGeneric,
      response: partOf(responses.gaussian, (result) => ({
        ...result.generic.approx,
        per_record: result.generic.per_record,
      })),
      render: plain,
      note: (result) => `from its per-record ${describe(result.per_record)}: compare with the exact row`,
      fields: { ...kField, ...mechanismFields },
    },
    {
      id: 'gaussian-composition',
      label: 'For contrast: k-fold composition of the Gaussian',
      formula: formulas.groupGaussianComposition,
      response: partOf(responses.gaussian, (result) => result.composition),
      render: zcdpThenApprox,
      note: () => 'k independent releases about one record, not one release about k records',
      fields: { ...kField, ...mechanismFields },
    },
  ];
  results.replaceChildren(methodTable({ caption: `A group of k = ${fields.k.value.trim()} records`, rows, errors }));
  summary(summaryOf(fields.k.value.trim(), responses));
  // The plots' requests (four per group size) are asked after the table is shown, so that its
  // answers do not wait for theirs.
  const series = await plotSeries(calculator, values, fields, errors);
  if (!isCurrent()) return;
  plots.replaceChildren(
    chartFigure(series.parameters, {
      title: 'Group privacy grows with k: linear for ε, quadratic for ρ',
      xLabel: 'group size k',
      yLabel: 'ε or ρ',
      description: 'Privacy parameter of a group against its size, for each definition.',
      file: 'dpcalc-group-parameters',
    }),
    chartFigure(series.deltas, {
      title: 'δ of the generic (ε, δ) bound grows exponentially with k (capped at 1: vacuous)',
      xLabel: 'group size k',
      yLabel: 'δ',
      yLog: true,
      description: 'δ of the approximate-DP group bound against group size.',
      file: 'dpcalc-group-delta',
    }),
  );
}

/** One line for screen readers: the pure, zCDP and Gaussian answers. */
function summaryOf(k, responses) {
  const parts = [];
  if (responses.pure.ok) parts.push(`pure DP ε ≤ ${formatNumber(responses.pure.result.guarantee.epsilon)}`);
  if (responses.zcdp.ok) parts.push(`zCDP ρ ≤ ${formatNumber(responses.zcdp.result.guarantee.rho)}`);
  if (responses.gaussian.ok && !responses.gaussian.result.vacuous)
    parts.push(`Gaussian ${describe(responses.gaussian.result.guarantee)}`);
  return parts.length ? `A group of ${k} records: ${parts.join('; ')}.` : 'No answer: check the marked fields.';
}

async function plotSeries(calculator, values, fields, errors) {
  const ks = plotRange(fields.kmax, errors, { max: 1000, points: 40, log: false });
  const kinds = [
    ['pure', 'pure ε = kε', (result) => result.guarantee.epsilon, 'group-pure'],
    ['zcdp', 'zCDP ρ = k²ρ', (result) => result.guarantee.rho, 'group-zcdp'],
    ['gaussian', 'Gaussian ε at δ (exact)', (result) => result.guarantee.epsilon, 'group-gaussian'],
  ];
  const jobs = ks.flatMap((k) => {
    const base = requests(values, k);
    return [
      ...kinds.map(([name, series, y, key]) => ({ k, request: base[name], series, key, y, target: 'parameters' })),
      {
        k,
        request: base.approx,
        series: 'approximate DP δ',
        key: 'group-approx-delta',
        y: (result) => (result.vacuous ? 1 : result.guarantee.delta),
        target: 'deltas',
      },
    ];
  });
  const responses = await askAll(
    calculator,
    jobs.map((job) => job.request),
  );
  const series = { parameters: [], deltas: [] };
  responses.forEach((response, i) => {
    const job = jobs[i];
    if (!response.ok) return;
    const y = job.y(response.result);
    if (Number.isFinite(y) && (job.target !== 'deltas' || y > 0))
      series[job.target].push({ series: job.series, key: job.key, x: job.k, y });
  });
  return series;
}

export default {
  name: 'group',
  title: 'Group privacy',
  question: [
    'A person contributes up to ',
    h('em', {}, 'k'),
    ' records. What does the guarantee of one record give that person?',
  ],
  form: [
    {
      legend: 'Group',
      fields: [
        {
          name: 'k',
          label: 'Group size',
          symbol: 'k',
          type: 'count',
          value: '4',
          hint: 'records one person contributes',
        },
        { name: 'kmax', label: 'Plot up to group size', type: 'count', value: '16' },
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
        { name: 'gaussian_delta', label: 'Target δ for the Gaussian', symbol: 'δ', type: 'number', value: '1e-5' },
      ],
    },
  ],
  update: updateGroup,
};
