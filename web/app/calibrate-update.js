// Noise calibration: the smallest Gaussian σ, Laplace scale b or DP-SGD noise multiplier whose sound
// bound meets a target (ε, δ) over k uses, by every method that applies, and (for the closed forms)
// the noise needed against the target ε. Each answer comes from {op:'calibrate'} in the core, which
// searches on the sound forward bound; a noise is shown rounded up (more noise is always safe). PLD
// rows run in the numeric worker with a progress bar and a Cancel button.
import { h, readNumber, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { askAll, methodRow, methodTable, settleUnlessAborted } from './results.js';
import { chartFigure } from './chart.js';
import { formatNumber } from './format.js';
import { methodWords, paperGuarantee, paperNumber } from './headline.js';
import { numericStatus } from './numeric.js';
import { anyMechanism } from './calibrate-any.js';

const smallestNoise = (noise) =>
  String.raw`\min\{${noise} : \varepsilon_{\text{bound}}(${noise}) \le \varepsilon\ \text{at}\ \delta\}`;
const calibrationFormulas = {
  analytic: String.raw`${smallestNoise(String.raw`\sigma`)},\ \ \Phi\Bigl(\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Bigr) - e^{\varepsilon}\Phi\Bigl(-\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Bigr) \le \delta,\ \mu = \frac{\sqrt{k}\,\Delta}{\sigma}`,
  zcdp: String.raw`\rho = \frac{k\Delta^2}{2\sigma^2},\quad ${formulas.canonneKamathSteinke}`,
  basic: String.raw`b = \frac{k\Delta}{\varepsilon}`,
  optimal: String.raw`b = \frac{\Delta}{\varepsilon_0},\quad ${formulas.optimal}`,
  pld: String.raw`${smallestNoise('x')},\ \ ${formulas.pld}`,
};

// The mechanisms of the form: the request's mechanism and unknown, and the methods that apply,
// tightest first. `pureTarget` is what a row says when the core finds its method does not apply.
const mechanisms = {
  gaussian: {
    id: 'gaussian',
    describe: 'Gaussian noise',
    short: 'Gaussian',
    symbol: 'σ',
    noiseName: 'Gaussian noise std. dev.',
    unknown: 'sigma',
    mechanism: ({ sensitivity }) => ({ type: 'gaussian', sensitivity }),
    methods: [
      {
        id: 'analytic',
        label: 'Analytic Gaussian (exact)',
        method: 'analytic',
        plotted: true,
        chartKey: 'group-gaussian',
      },
      { id: 'pld', label: 'PLD (numeric)', method: 'pld' },
      { id: 'zcdp', label: 'zCDP (Canonne–Kamath–Steinke)', method: 'zcdp', plotted: true, chartKey: 'zcdp' },
    ],
  },
  laplace: {
    id: 'laplace',
    describe: 'Laplace noise',
    short: 'Laplace',
    symbol: 'b',
    noiseName: 'Laplace noise scale',
    unknown: 'scale',
    mechanism: ({ sensitivity }) => ({ type: 'laplace', sensitivity }),
    methods: [
      { id: 'pld', label: 'PLD (numeric, tightest)', method: 'pld', pureTarget: true },
      {
        id: 'optimal',
        label: 'Optimal composition of (Δ/b)-DP',
        method: 'optimal',
        plotted: true,
        chartKey: 'optimal',
        pureTarget: true,
      },
      { id: 'basic', label: 'Basic composition (pure ε)', method: 'basic', plotted: true, chartKey: 'basic' },
    ],
  },
  dpsgd: {
    id: 'dpsgd',
    describe: 'DP-SGD (Poisson-subsampled Gaussian)',
    short: 'DP-SGD',
    symbol: 'z',
    noiseName: 'noise multiplier',
    unknown: 'noise_multiplier',
    mechanism: ({ sensitivity, rate }) => ({
      type: 'poisson_subsampled',
      rate,
      mechanism: { type: 'gaussian', sensitivity },
    }),
    methods: [{ id: 'pld', label: 'PLD (numeric)', method: 'pld' }],
  },
};

const kPureTargetText = 'Needs δ > 0: for a pure target (δ = 0) only basic composition bounds Laplace noise.';

// The target ε values of the plot, as multiples of the target ε (each rounded to three digits, so
// the chart's table shows them as sent).
const kPlotFactors = Array.from({ length: 17 }, (_, i) => 10 ** ((i - 8) / 4));
const plotEpsilons = (epsilon) => kPlotFactors.map((factor) => Number((epsilon * factor).toPrecision(3)));

/** The noise of a result as text: "σ = 3.7307" (rounded up), with σ = z·C for DP-SGD. */
function renderNoise(entry, result) {
  const { symbol, unknown } = entry;
  const value = result[unknown];
  const parts = [
    h('span', { class: 'noise', dataset: { noise: String(value) } }, `${symbol} = ${formatNumber(value, 'up')}`),
  ];
  if (entry.id === 'dpsgd')
    parts.push(h('span', { class: 'note' }, ` (σ = z·C = ${formatNumber(result.sigma, 'up')})`));
  return h('span', {}, ...parts);
}

function noteOf(result) {
  const { epsilon, delta } = result.guarantee;
  const back =
    delta === 0 ? `ε ≤ ${formatNumber(epsilon)}` : `ε ≤ ${formatNumber(epsilon)} at δ = ${formatNumber(delta, 'down')}`;
  return (
    `composes back to ${back}; search bracket [${formatNumber(result.bracket.low, 'down')}, ${formatNumber(result.bracket.high, 'up')}], ` +
    `${result.evaluations} bound evaluations`
  );
}

function inputsOf(form) {
  const input = (name) => form.elements[name];
  const kind = input('mechanism').value;
  const fields = {
    sensitivity: input('sensitivity'),
    rate: input('rate'),
    count: input('count'),
    epsilon: input('epsilon'),
    delta: input('delta'),
  };
  const values = Object.fromEntries(Object.entries(fields).map(([name, element]) => [name, readNumber(element)]));
  const fieldMap = {
    count: fields.count,
    'target.epsilon': fields.epsilon,
    'target.delta': fields.delta,
    'mechanism.rate': fields.rate,
    'mechanism.sensitivity': fields.sensitivity,
    'mechanism.mechanism.sensitivity': fields.sensitivity,
  };
  return { kind, fields, values, fieldMap };
}

function requestOf(entry, values, method, epsilon = values.epsilon) {
  const { mechanism, unknown } = entry;
  return {
    op: 'calibrate',
    mechanism: mechanism(values),
    unknown,
    count: values.count,
    method,
    target: { epsilon, delta: values.delta },
  };
}

function noisePlot(entry, values, plotted, responses) {
  const { symbol, describe, noiseName } = entry;
  const points = [];
  plotted.forEach((method, m) =>
    plotEpsilons(values.epsilon).forEach((epsilon, i) => {
      const response = responses[m * kPlotFactors.length + i];
      if (response.ok)
        points.push({
          series: method.label,
          key: method.chartKey,
          x: epsilon,
          y: response.result[entry.unknown],
        });
    }),
  );
  // No closed form applies (for a mechanism of the catalog, the core refuses them on `method`).
  const onlyPld = plotted.every(
    (_, m) => entry.appliesOnly && responses[m * kPlotFactors.length].error?.field === 'method',
  );
  return chartFigure(points, {
    title: `Noise needed against the target ε (${describe}, δ and k as above)`,
    xLabel: 'target ε',
    yLabel: symbol,
    xName: 'target privacy loss ε',
    yName: `smallest ${noiseName} ${symbol}`,
    xLog: true,
    yLog: true,
    description: `The smallest ${symbol} each closed-form method certifies for each target epsilon, log-log axes.`,
    emptyText: onlyPld ? 'Only the numeric PLD bound applies here, so no curve is drawn.' : undefined,
    file: 'dpcalc-noise-calibration',
  });
}

async function updateCalibrate({ calculator, form, isCurrent, results, plots, errors, signal, summary, explain }) {
  const { kind, fields, values, fieldMap: baseFields } = inputsOf(form);
  form.querySelector('[data-picked]').closest('fieldset').hidden = kind !== 'catalog';
  const entry = kind === 'catalog' ? await anyMechanism({ calculator, form }) : mechanisms[kind];
  if (!isCurrent()) return;
  const fieldMap = { ...baseFields, ...entry.fields };
  if (entry.solvable === false) {
    results.replaceChildren(
      h('p', { class: 'note' }, 'This mechanism has no noise parameter the calculator can solve for.'),
    );
    plots.replaceChildren();
    summary('No noise to find: this mechanism has no noise parameter the calculator can solve for.');
    return;
  }
  const methods = entry.methods;
  const closed = methods.filter((method) => method.method !== 'pld');
  const plotted = methods.filter((method) => method.plotted);
  const [closedResponses, plotResponses] = await Promise.all([
    askAll(
      calculator,
      closed.map((method) => requestOf(entry, values, method.method)),
    ),
    askAll(
      calculator,
      plotted.flatMap((method) =>
        plotEpsilons(values.epsilon).map((epsilon) => requestOf(entry, values, method.method, epsilon)),
      ),
    ),
  ]);
  if (!isCurrent()) return;

  // A method the core says does not apply (code 'unsupported': a pure target under PLD or optimal
  // composition) says why in the page's words.
  const rowOf = (method) => ({
    id: method.id,
    label: method.label,
    // A mechanism of the catalog: the search for the smallest noise x on the method's bound.
    formula: entry.appliesOnly && method.id !== 'pld' ? smallestNoise('x') : calibrationFormulas[method.id],
    fields: fieldMap,
    render: (result) => renderNoise(entry, result),
    note: noteOf,
    notApplicable: method.pureTarget ? () => kPureTargetText : undefined,
  });
  const responseOf = new Map(closed.map((method, i) => [method.id, closedResponses[i]]));
  // Of a mechanism picked from the catalog, the rows of the methods that apply to it (the core
  // refuses the others on `method`).
  const shown = methods.filter(
    (method) => !entry.appliesOnly || method.method === 'pld' || responseOf.get(method.id).error?.field !== 'method',
  );
  const pldMethod = methods.find((method) => method.method === 'pld');
  const numeric = new AbortController();
  const abortNumeric = () => numeric.abort();
  signal.addEventListener('abort', abortNumeric, { once: true });
  const status = numericStatus({ id: 'calibrate-pld', label: 'PLD calibration', onCancel: abortNumeric });
  const rowElements = new Map(
    shown.map((method) => [
      method.id,
      method.method === 'pld'
        ? methodRow(
            { ...rowOf(method), status: 'running', pending: h('span', { class: 'pending' }, 'searching…') },
            errors,
          )
        : methodRow({ ...rowOf(method), response: responseOf.get(method.id) }, errors),
    ]),
  );
  const caption = `${entry.short}, k = ${fields.count.value.trim()}, target ε = ${fields.epsilon.value.trim()}, δ = ${fields.delta.value.trim()}`;
  const table = methodTable({ caption, rows: [], errors });
  table.querySelector('tbody').append(...rowElements.values());
  results.replaceChildren(status.element, table);
  showFieldErrors(form, errors);
  plots.replaceChildren(noisePlot(entry, values, plotted, plotResponses));

  // The headline: the noise found, against the person's own target (ε, δ) and k.
  const say = (response, method) => {
    if (!response?.ok) return;
    const { result } = response;
    const { symbol, unknown } = entry;
    const value = result[unknown];
    const count = fields.count.value.trim();
    summary(
      `${symbol} = ${formatNumber(value, 'up')} meets ε = ${fields.epsilon.value.trim()}, δ = ${fields.delta.value.trim()} over k = ${count}, by ${methodWords(method.label)}.`,
      {
        cite:
          `${count} releases with ${entry.describe} (${symbol} = ${paperNumber(value, 'up')}` +
          (kind === 'catalog'
            ? ') together satisfy '
            : `, ${kind === 'dpsgd' ? 'clip norm' : 'sensitivity'} ${fields.sensitivity.value.trim()}) together satisfy `) +
          `${paperGuarantee({ type: 'approx', ...values }, { deltaIsGiven: true })}, by ${methodWords(method.label)} (${result.citation}).`,
      },
    );
  };
  const closedAnswer = closed.find((method) => responseOf.get(method.id).ok);
  if (closedAnswer) say(responseOf.get(closedAnswer.id), closedAnswer);
  // The noise found meets the target: the panel explains what that target allows an attacker.
  const { epsilon, delta } = values;
  explain({ of: { guarantee: delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta } } });
  try {
    const response = await settleUnlessAborted(
      calculator.run(requestOf(entry, values, 'pld'), {
        signal: numeric.signal,
        onProgress: (fraction) => status.progress(fraction),
      }),
    );
    if (!isCurrent()) return;
    const next = methodRow({ ...rowOf(pldMethod), response, status: 'done' }, errors);
    rowElements.get(pldMethod.id).replaceWith(next);
    const applies = response.ok || response.error.code !== 'unsupported';
    status.finish(
      applies && !response.ok ? 'error' : 'done',
      response.ok ? 'PLD calibration: done.' : `PLD calibration: ${applies ? 'see its row' : 'does not apply'}.`,
    );
    // The PLD is the tightest bound offered for Laplace and the only one for DP-SGD.
    if (kind !== 'gaussian') say(response, pldMethod);
    showFieldErrors(form, errors);
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (!isCurrent()) return;
    status.finish('cancelled', 'PLD calibration cancelled. Change any input to compute again.');
    rowElements
      .get(pldMethod.id)
      .replaceWith(
        methodRow(
          { ...rowOf(pldMethod), status: 'cancelled', pending: h('span', { class: 'cancelled' }, 'cancelled') },
          errors,
        ),
      );
  } finally {
    signal.removeEventListener('abort', abortNumeric);
  }
}

export { updateCalibrate };
