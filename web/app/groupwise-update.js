// Group-wise relative error: Algorithm 1 of Pujol & Desfontaines (2023, an open problem) releases a
// group's count with Gaussian noise at ρ-zCDP, then adds noise proportional to the noisy count, so
// that every group sees about the same relative error r. Every group is proven ρ-zCDP; how much
// better large groups do is not proven. This section shows the mechanism's output (the paper's
// Figure 1) and the core's numerical estimate of each group's guarantee, always labelled as such
// beside the proven bound. Every number comes from the core (ops groupwise_privacy, groupwise_simulate;
// the requests are groupwise-requests.js), both numeric (runNumeric).
import { fieldMessage, h, readNumber } from './dom.js';
import { formatNumber } from './format.js';
import { formulaElement } from './formula.js';
import { chartFigure } from './chart.js';
import { runNumeric } from './numeric.js';
import { citeElement } from './results.js';
import { keysOf } from './citation-keys.js';
import { boundText, citeSentence, paperGuarantee, proof } from './headline.js';
import { kMaxGroups, requests } from './groupwise-requests.js';
import { apiWords } from './api-words.js';

const kEstimateLabel = 'numerical estimate, not a proof';
// Statistics and estimates are rounded to the nearest: outward rounding is for guarantees (format.js).
const estimateText = (x) => formatNumber(x, 'nearest');

/** The input an API error names, as an input name of this form. */
function fieldOf(error) {
  if (error.field.startsWith('counts.')) return 'counts';
  return {
    rho: 'rho',
    relative_error: 'relative_error',
    count: 'group',
    samples: 'samples',
    seed: 'seed',
    delta: 'delta',
    counts: 'counts',
  }[error.field];
}

/** What is proven and what is only estimated, citing the works from the result's keys. */
function statement(result, r) {
  const { rho, proven } = result;
  return h(
    'div',
    { class: 'groupwise-statement', dataset: { statement: '' } },
    h(
      'p',
      {},
      h('strong', {}, 'Proven: '),
      'every group is ',
      formulaElement(String.raw`\rho`),
      '-zCDP with ρ = ',
      formatNumber(rho),
      ' (the first stage is the Gaussian mechanism, the second is post-processing: ',
      citeElement(proven.citation, keysOf(proven.citation_key)),
      ').',
    ),
    h(
      'p',
      {},
      h('strong', {}, 'Only estimated: '),
      'the smaller values below are a ',
      h('em', {}, kEstimateLabel),
      ': quadrature of the output density ',
      formulaElement(String.raw`p_x(y) = \int \mathcal N(s; x, \sigma^2)\, \mathcal N(y; s, (r s)^2)\, ds`),
      ` (r = ${formatNumber(r)}), the Rényi divergence of neighbouring counts x and x + 1 in both directions at orders α from 1.01 to 256, ` +
        'with an error estimate from repeating it at half the step. An estimate over finitely many orders is not a zCDP guarantee.',
    ),
    h(
      'p',
      {},
      h('strong', {}, 'Open question '),
      '(',
      citeElement(result.citation, keysOf(result.citation_key)),
      '): does Algorithm 1 give larger groups a provably ' +
        'better guarantee, and by how much? Outputs near 0 come from a first stage near 0 and reveal it almost exactly, so the ' +
        'supremum over all orders may stay at ρ even when every order shown is far below it.',
    ),
  );
}

function groupsTable(result) {
  const rows = result.groups.map((group) =>
    h(
      'tr',
      { dataset: { count: String(group.count), rhoEstimate: String(group.rho_estimate) } },
      h('th', { scope: 'row' }, String(group.count)),
      h(
        'td',
        { dataset: { label: 'E|Y − x| / x' } },
        group.expected_relative_error === null ? '— (x = 0)' : estimateText(group.expected_relative_error),
      ),
      h(
        'td',
        { dataset: { label: 'estimated ρ' } },
        `≈ ${estimateText(group.rho_estimate)} ± ${estimateText(group.error_estimate)}`,
      ),
      h(
        'td',
        { dataset: { label: 'estimated ε' } },
        group.epsilon_estimate === undefined ? '—' : `≈ ${estimateText(group.epsilon_estimate)}`,
      ),
      h(
        'td',
        { dataset: { label: 'proven' } },
        `ρ = ${formatNumber(result.proven.rho)}`,
        result.proven.epsilon === undefined ? '' : `, ε ≤ ${formatNumber(result.proven.epsilon)}`,
      ),
    ),
  );
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'groupwise-groups' },
      h(
        'caption',
        {},
        `Each group: estimated guarantee (${kEstimateLabel}) beside the proven one` +
          (result.proven.delta === undefined ? '' : `; ε at δ = ${formatNumber(result.proven.delta, 'down')}`),
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Group size x', 'E|Y − x| / x', 'Estimated ρ (max over α of D_α/α)', 'Estimated ε', 'Proven'].map((text) =>
            h('th', { scope: 'col' }, text),
          ),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

function guaranteeFigure(result) {
  const points = [];
  for (const group of result.groups.filter((g) => g.count > 0)) {
    points.push({
      series: `estimate (${kEstimateLabel})`,
      x: group.count,
      y: Math.max(group.rho_estimate, 1e-300),
      xRole: 'given',
      yRole: 'estimate',
    });
    points.push({
      series: 'estimate + its error',
      x: group.count,
      y: group.rho_estimate + group.error_estimate,
      xRole: 'given',
      yRole: 'estimate',
    });
    points.push({ series: 'proven ρ', x: group.count, y: result.proven.rho, xRole: 'given', yRole: 'given' });
  }
  return chartFigure(points, {
    title: 'Estimated guarantee against group size',
    xLabel: 'group size x',
    yLabel: 'ρ',
    yName: 'zCDP parameter ρ of the group',
    xLog: true,
    yLog: true,
    file: 'dpcalc-groupwise-guarantee',
    description: 'The numerical estimate of each group’s ρ, its upper error band, and the proven ρ.',
  });
}

function renyiFigure(group, rho) {
  const points = group.renyi.orders.flatMap((alpha, i) => [
    {
      series: `D_α/α (${kEstimateLabel})`,
      x: alpha,
      y: group.renyi.epsilons[i] / alpha,
      xRole: 'given',
      yRole: 'estimate',
    },
    { series: 'proven ρ', x: alpha, y: rho, xRole: 'given', yRole: 'given' },
  ]);
  return chartFigure(points, {
    title: `D_α/α against the order α, group of ${group.count}`,
    xLabel: 'order α',
    yLabel: 'D_α / α',
    xName: 'Rényi order α',
    yName: 'Rényi divergence over its order D_α/α',
    xLog: true,
    file: 'dpcalc-groupwise-renyi',
    description: 'Rényi divergence over the order, larger of the two directions.',
  });
}

function outputFigure(simulation) {
  const { edges, counts } = simulation.histogram;
  const points = counts.flatMap((count, i) => {
    const x = (edges[i] + edges[i + 1]) / 2;
    return [
      {
        series: `Algorithm 1, ${simulation.samples.toLocaleString('en-US')} samples`,
        x,
        y: count,
        xRole: 'given',
        yRole: 'given',
      },
      {
        series: `best-fitting Gaussian (mean ${estimateText(simulation.fit.mean)}, sd ${estimateText(simulation.fit.sd)})`,
        x,
        y: simulation.fit.counts[i],
        xRole: 'given',
        yRole: 'estimate',
      },
    ];
  });
  return chartFigure(points, {
    title: `Output distribution for a true count of ${simulation.count} (Figure 1 of Pujol & Desfontaines 2023)`,
    xLabel: 'output Y',
    yLabel: 'samples per bin',
    xName: 'output Y (centre of the bin)',
    yName: 'simulated outputs in the bin',
    file: 'dpcalc-groupwise-output',
    description: 'Histogram of simulated outputs of Algorithm 1 with the best-fitting Gaussian.',
  });
}

/**
 * The headline: the proven guarantee first (zCDP, and (ε, δ) at the person's δ), then the estimate
 * for the group shown, labelled as such. The sentence for a paper states only what is proven.
 */
function headlineOf(result, chosen, group) {
  const { proven } = result;
  const provenText =
    proven.epsilon === undefined
      ? boundText({ type: 'zcdp', rho: proven.rho })
      : `${boundText({ type: 'zcdp', rho: proven.rho })}, ${boundText({ type: 'approx', epsilon: proven.epsilon, delta: proven.delta }, { deltaIsGiven: true })}`;
  const guarantee =
    proven.epsilon === undefined
      ? paperGuarantee({ type: 'zcdp', rho: proven.rho })
      : paperGuarantee({ type: 'approx', epsilon: proven.epsilon, delta: proven.delta }, { deltaIsGiven: true });
  return [
    `Every group: proven ${provenText}. Group of ${group}: estimated ρ ≈ ${estimateText(chosen.rho_estimate)} (${kEstimateLabel}).`,
    {
      cite: citeSentence({
        subject: `Algorithm 1 of ${result.citation.replace(/ (\d{4}), Algorithm 1.*$/, ' ($1)')}, with relative error r = ${result.relative_error},`,
        guarantee,
        scope: 'for every group',
        method: 'the Gaussian mechanism followed by post-processing',
        citation: proven.citation,
      }),
      result,
      proof: proof.proven('Proven for every group; the per-group ρ is a numerical estimate, not a proof'),
    },
  ];
}

/** The inputs read as numbers (so that a text that is not one is explained as such beside it). */
const kNumbers = ['rho', 'relative_error', 'group', 'samples', 'seed'];

async function updateGroupwise(section) {
  const { calculator, form, inputs, isCurrent, results, plots, errors, signal, summary } = section;
  const input = (name) => form.elements[name];
  for (const name of kNumbers) readNumber(input(name));
  if (inputs.delta.trim() !== '') readNumber(input('delta'));
  const items = requests(inputs);
  if (items.length === 0) {
    errors.set(input('counts'), `Enter 1 to ${kMaxGroups} group sizes separated by commas, e.g. 10, 100, 1000.`);
    results.replaceChildren(h('p', { class: 'row-error' }, 'Check the marked field.'));
    summary('No answer: check the marked fields.');
    return;
  }
  const [privacyItem, simulateItem] = items;
  const numeric = { calculator, signal, isCurrent, id: 'groupwise-numeric', label: 'Quadrature and simulation' };
  await runNumeric({ ...numeric, onCancel: () => summary('Cancelled.') }, async ({ status, run }) => {
    results.replaceChildren(status.element);
    plots.replaceChildren();
    summary('Computing the numerical estimate…');
    const fail = (response) => {
      const name = fieldOf(response.error);
      // One of the listed group sizes ("counts.1"): named by its place in the list.
      const place = /^counts\.(\d+)$/.exec(response.error.field)?.[1];
      const about =
        place === undefined ? input(name) : { name, dataset: { term: `Group size ${Number(place) + 1} of the list` } };
      const message = name
        ? fieldMessage(about, response.error.message, response.error.field)
        : apiWords(response.error.message);
      if (name) errors.set(input(name), message);
      status.finish('error', message);
      summary(name ? 'No answer: check the marked field.' : `No answer: ${message}`);
    };
    const privacy = await run(privacyItem.request, (f) => 0.8 * f);
    if (!isCurrent()) return;
    if (!privacy.ok) return fail(privacy);
    const simulation = await run(simulateItem.request, (f) => 0.8 + 0.2 * f);
    if (!isCurrent()) return;
    if (!simulation.ok) return fail(simulation);
    status.finish('done', `Done: ${kEstimateLabel}.`);
    showAnswer(section, { status, result: privacy.result, simulation: simulation.result, item: privacyItem });
  });
}

/** The answer: what is proven and what is estimated, each group's row, the figures, the headline. */
function showAnswer({ results, plots, summary, explain }, { status, result, simulation, item }) {
  const { counts, group } = item;
  const shownGroups = { ...result, groups: result.groups.filter((g) => counts.includes(g.count)) };
  const chosen = result.groups.find((g) => g.count === group);
  results.replaceChildren(
    status.element,
    statement(result, item.request.relative_error),
    groupsTable(shownGroups),
    h('p', { class: 'note' }, result.label),
  );
  plots.replaceChildren(outputFigure(simulation), guaranteeFigure(shownGroups), renyiFigure(chosen, result.rho));
  summary(...headlineOf(result, chosen, group));
  // The proven guarantee (the estimates are not proofs): what it allows an attacker, per record.
  explain({ of: { guarantee: { type: 'zcdp', rho: result.proven.rho } } });
}

export { updateGroupwise };
