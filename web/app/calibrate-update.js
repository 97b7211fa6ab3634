// Noise calibration on the page: the smallest Gaussian σ, Laplace scale b or DP-SGD noise multiplier
// whose sound bound meets a target (ε, δ) over k uses, by every method that applies, and (for the
// closed forms) the noise needed against the target ε. The requests are calibrate-requests.js; each
// answer comes from {op:'calibrate'} in the core, which searches on the sound forward bound; a noise
// is shown rounded up (more noise is always safe). The PLD row runs in the numeric worker with a
// progress bar and a Cancel button (runNumeric).
import { h, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { inputsOf, methodRow, methodTable } from './results.js';
import { answerAll, byId, ofRole } from './ask.js';
import { chartFigure } from './chart.js';
import { formatNumber } from './format.js';
import { methodWords, paperGuarantee, paperNumber, proof } from './headline.js';
import { runNumeric } from './numeric.js';
import { catalogOf, requestOf } from './mechanism-picker.js';
import { pickedMechanism } from './picked-mechanism.js';
import { anySpec } from './calibrate-any.js';
import { entryOf, kPlotFactors, requests, valuesOf } from './calibrate-requests.js';

const smallestNoise = (noise) =>
  String.raw`\min\{${noise} : \varepsilon_{\text{bound}}(${noise}) \le \varepsilon\ \text{at}\ \delta\}`;
const calibrationFormulas = {
  analytic: String.raw`${smallestNoise(String.raw`\sigma`)},\ \ \Phi\Bigl(\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Bigr) - e^{\varepsilon}\Phi\Bigl(-\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Bigr) \le \delta,\ \mu = \frac{\sqrt{k}\,\Delta}{\sigma}`,
  zcdp: String.raw`\rho = \frac{k\Delta^2}{2\sigma^2},\quad ${formulas.canonneKamathSteinke}`,
  basic: String.raw`b = \frac{k\Delta}{\varepsilon}`,
  optimal: String.raw`b = \frac{\Delta}{\varepsilon_0},\quad ${formulas.optimal}`,
  pld: String.raw`${smallestNoise('x')},\ \ ${formulas.pld}`,
};

const kPureTargetText = 'Needs δ > 0: for a pure target (δ = 0) only basic composition bounds Laplace noise.';

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
  // The bracket's low end is only the last value tried that misses the target: beside the answer it
  // would read as an uncertainty of the answer, which meets the target as stated.
  return `composes back to ${back}, found in ${result.evaluations} bound evaluations`;
}

/** The plot: the noise each closed form needs against the target ε. */
function noisePlot(entry, points) {
  const { symbol, describe, noiseName } = entry;
  const answered = points
    .filter(({ response }) => response.ok)
    .map(({ method, epsilon, response }) => ({
      series: method.label,
      key: method.chartKey,
      x: epsilon,
      y: response.result[entry.unknown],
    }));
  // No closed form applies (for a mechanism of the catalog, the core refuses them on `method`).
  const firsts = points.filter((_, i) => i % kPlotFactors.length === 0);
  const onlyPld = firsts.every(({ response }) => entry.appliesOnly && response.error?.field === 'method');
  return chartFigure(answered, {
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

/** The inputs of `picker`'s innermost mechanism (where the noise solved for is). */
const innermostInputs = (spec, inputs) =>
  spec.mechanism && typeof spec.mechanism === 'object'
    ? innermostInputs(spec.mechanism, inputs.get('mechanism/') ?? new Map())
    : inputs;

/**
 * "Any mechanism": its picker in the form (following the `any_mechanism` input), the input of the
 * noise solved for hidden (it is not typed), and the inputs behind the request's mechanism fields.
 */
function anyMechanismInputs(form, catalog, entry) {
  const { spec, picker } = pickedMechanism(form, {
    name: 'any_mechanism',
    slot: 'picked',
    idPrefix: 'calibrate-any',
    label: 'Mechanism',
    catalog,
    fallback: () => anySpec(catalog, ''),
  });
  for (const [name, input] of innermostInputs(spec(), picker.inputs))
    if (typeof input !== 'object' || !input.closest) continue;
    else input.closest('.field').hidden = name === entry.solved;
  return requestOf(catalog, spec(), 'mechanism', picker.inputs).fields;
}

/** The headline: the noise found, against the person's own target (ε, δ) and k. */
function headlineOf(entry, item, inputs) {
  const { result } = item.response;
  const { symbol, unknown } = entry;
  const value = result[unknown];
  const count = inputs.count.trim();
  const label = methodWords(item.method.label);
  const guarantee = paperGuarantee({ type: 'approx', ...targetOf(inputs) }, { deltaIsGiven: true });
  const device =
    entry.id === 'catalog'
      ? ') together satisfy '
      : `, ${entry.id === 'dpsgd' ? 'clip norm' : 'sensitivity'} ${inputs.sensitivity.trim()}) together satisfy `;
  return [
    `${symbol} = ${formatNumber(value, 'up')} meets ε = ${inputs.epsilon.trim()}, δ = ${inputs.delta.trim()} over k = ${count}, by ${label}.`,
    {
      cite:
        `${count} releases with ${entry.describe} (${symbol} = ${paperNumber(value, 'up')}` +
        `${device}${guarantee}, by ${label} (${result.citation}).`,
      result,
      proof: proof.proven('Proven: at this noise the upper bound meets the target'),
    },
  ];
}

const targetOf = (inputs) => {
  const { epsilon, delta } = valuesOf(inputs);
  return { epsilon, delta };
};

async function updateCalibrate(section) {
  const { calculator, form, inputs, isCurrent, results, plots, errors, summary } = section;
  const catalogChosen = inputs.mechanism === 'catalog';
  form.querySelector('[data-picked]').closest('fieldset').hidden = !catalogChosen;
  const catalog = catalogChosen ? await catalogOf(calculator) : undefined;
  if (!isCurrent()) return;
  const entry = entryOf(inputs, catalog);
  const pickerFields = catalogChosen ? anyMechanismInputs(form, catalog, entry) : {};
  if (entry.solvable === false) {
    results.replaceChildren(
      h('p', { class: 'note' }, 'This mechanism has no noise parameter the calculator can solve for.'),
    );
    plots.replaceChildren();
    summary('No noise to find: this mechanism has no noise parameter the calculator can solve for.');
    return;
  }
  const items = requests(inputs, { catalog });
  const rows = ofRole(items, 'row');
  const closed = rows.filter((item) => item.method.method !== 'pld');
  const [closedAnswers, points] = await Promise.all([
    answerAll(calculator, closed),
    answerAll(calculator, ofRole(items, 'plot')),
  ]);
  if (!isCurrent()) return;
  const view = { entry, inputs, form, errors, pickerFields };
  await calibrationTable(section, view, { rows, closed: byId(closedAnswers), points });
}

/** A row of the table, as methodRow takes it (without its answer). */
function rowOf(item, { entry, form, pickerFields }) {
  return {
    id: item.id,
    label: item.label,
    // A mechanism of the catalog: the search for the smallest noise x on the method's bound.
    formula: entry.appliesOnly && item.id !== 'pld' ? smallestNoise('x') : calibrationFormulas[item.id],
    fields: inputsOf(form, { ...item.fields, ...pickerFields }, item.request),
    render: (result) => renderNoise(entry, result),
    note: noteOf,
    notApplicable: item.method.pureTarget ? () => kPureTargetText : undefined,
  };
}

/** The table (closed forms answered, the PLD row computing), the plot and the headline, then the PLD. */
async function calibrationTable(section, view, { rows, closed, points }) {
  const { calculator, isCurrent, results, plots, signal, summary, explain } = section;
  const { entry, inputs, form, errors } = view;
  // Of a mechanism picked from the catalog, the rows of the methods that apply to it (the core
  // refuses the others on `method`).
  const shown = rows.filter(
    (item) => !entry.appliesOnly || item.method.method === 'pld' || closed[item.id].response.error?.field !== 'method',
  );
  const pld = rows.find((item) => item.method.method === 'pld');
  const pending = (status, className, text) =>
    methodRow({ ...rowOf(pld, view), status, pending: h('span', { class: className }, text) }, errors);
  const rowElements = new Map(
    shown.map((item) => [
      item.id,
      item === pld
        ? pending('running', 'pending', 'searching…')
        : methodRow({ ...rowOf(item, view), response: closed[item.id].response }, errors),
    ]),
  );
  const caption = `${entry.short}, k = ${inputs.count.trim()}, target ε = ${inputs.epsilon.trim()}, δ = ${inputs.delta.trim()}`;
  const table = methodTable({ caption, rows: [], errors });
  table.querySelector('tbody').append(...rowElements.values());
  const cancelled = () => rowElements.get(pld.id).replaceWith(pending('cancelled', 'cancelled', 'cancelled'));
  const numeric = {
    calculator,
    signal,
    isCurrent,
    id: 'calibrate-pld',
    label: 'PLD calibration',
    cancelled: 'PLD calibration cancelled. Change any input to compute again.',
    onCancel: cancelled,
  };
  await runNumeric(numeric, async ({ status, run }) => {
    results.replaceChildren(status.element, table);
    showFieldErrors(form, errors);
    plots.replaceChildren(noisePlot(entry, points));
    const closedAnswer = Object.values(closed).find((item) => item.response.ok);
    if (closedAnswer) summary(...headlineOf(entry, closedAnswer, inputs));
    // The noise found meets the target: the panel explains what that target allows an attacker.
    const { epsilon, delta } = targetOf(inputs);
    explain({ of: { guarantee: delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta } } });
    const response = await run(pld.request);
    if (!isCurrent()) return;
    rowElements.get(pld.id).replaceWith(methodRow({ ...rowOf(pld, view), response, status: 'done' }, errors));
    const applies = response.ok || response.error.code !== 'unsupported';
    status.finish(
      applies && !response.ok ? 'error' : 'done',
      response.ok ? 'PLD calibration: done.' : `PLD calibration: ${applies ? 'see its row' : 'does not apply'}.`,
    );
    // The PLD is the tightest bound offered for Laplace and the only one for DP-SGD.
    if (entry.id !== 'gaussian' && response.ok) summary(...headlineOf(entry, { ...pld, response }, inputs));
    showFieldErrors(form, errors);
  });
}

export { updateCalibrate };
