// Group privacy on the page: what the guarantee of one record gives a person with k records, under
// every definition, generic and mechanism-aware bounds side by side, and a group of k against k-fold
// composition for the Gaussian mechanism. The requests are group-requests.js (shared with
// <dp-calculator>); here they are answered and drawn: the table, the headline, the attacker panel,
// the plots.
import { h } from './dom.js';
import { formatNumber } from './format.js';
import { formulas } from './formula.js';
import { guaranteeElement, inputsOf, methodTable } from './results.js';
import { answerAll, answerItem, byId, ofRole } from './ask.js';
import { explainedItem } from './explained.js';
import { chartFigure } from './chart.js';
import { plotRange } from './range.js';
import { catalogOf, freshSpec, requestOf, specWords } from './mechanism-picker.js';
import { notesOf } from './mechanism-notes.js';
import { pickedMechanism } from './picked-mechanism.js';
import { asked, kPlotRange, ownInputs, requests } from './group-requests.js';
import { groupHeadline } from './group-headline.js';
import { solveGroup } from './group-solve.js';

const atDelta = (result) => guaranteeElement(result.guarantee, { vacuous: result.vacuous, deltaIsGiven: true });
const plain = (result) => guaranteeElement(result.guarantee, { vacuous: result.vacuous });
const zcdpThenApprox = (result) =>
  h('span', {}, guaranteeElement({ type: 'zcdp', rho: result.rho }), ' → ', atDelta(result));

const describe = (guarantee) =>
  `ε ≤ ${formatNumber(guarantee.epsilon)} at δ = ${formatNumber(guarantee.delta, 'down')}`;

/** One part of the Gaussian answer (its generic bounds, its composition) shown as a row of its own. */
const partOf = (response, part) => (response.ok ? { ok: true, result: part(response.result) } : response);

const kGenericGroupFormula = String.raw`\text{the mechanism's own analysis at group size } k`;

/** What the answer over a privacy profile rests on: one record's (ε, δ), and that it is generic. */
const profileNote = (result) =>
  result.per_record.type === 'pure'
    ? `from its per-record ε = ${formatNumber(result.per_record.epsilon)} (pure): generic, not a tight group analysis`
    : `from its per-record ${describe(result.per_record)}: generic, not a tight group analysis`;

/** The picker of the catalog's mechanisms in `form` (built or followed at every update). */
function picker(form, catalog) {
  return pickedMechanism(form, {
    name: 'mechanism',
    slot: 'picked',
    idPrefix: 'group-mechanism',
    label: 'Mechanism',
    catalog,
    fallback: () => freshSpec(catalog, catalog.types[0].name),
  }).picker;
}

/**
 * The answered row of the mechanism picked from the catalog, as its row shows it: { title, words,
 * formula, analysis, note, overProfile (answered by group privacy over its privacy profile, having
 * no group transform of its own), request, response, fields }.
 */
function pickedView(catalog, item, inputs) {
  const { spec, request, response } = item;
  const type = catalog.types.find((candidate) => candidate.name === spec.type);
  const overProfile = response.ok && response.result.per_record !== undefined;
  const pure = overProfile && response.result.per_record.type === 'pure';
  const substitute = request.relation === 'substitute';
  const note =
    overProfile || substitute
      ? (result) =>
          [substitute ? 'neighbours: one record replaced' : '', overProfile ? profileNote(result) : '']
            .filter(Boolean)
            .join('; ')
      : undefined;
  return {
    title: type?.title ?? spec.type,
    words: specWords(catalog, spec),
    formula: overProfile
      ? formulas[pure ? 'groupPure' : 'groupOverProfile']
      : (notesOf(spec.type).tex ?? kGenericGroupFormula),
    analysis: overProfile ? `group privacy ${pure ? 'of its pure ε' : 'over its privacy profile'}` : 'mechanism-aware',
    request,
    response,
    overProfile,
    note,
    fields: { ...requestOf(catalog, spec, 'mechanism', inputs).fields, k: 'k', delta: 'gaussian_delta' },
  };
}

/** The Gaussian mechanism's rows beyond its exact answer: its zCDP and generic bounds, and k-fold composition. */
function gaussianParts(gaussianRow) {
  const part = (id, label, formula, of, more) => ({
    ...gaussianRow,
    id,
    label,
    formula,
    response: partOf(gaussianRow.response, of),
    render: zcdpThenApprox,
    note: undefined,
    ...more,
  });
  return [
    part('gaussian-zcdp', 'Gaussian mechanism via zCDP', formulas.groupGaussianZcdp, (result) => result.generic.zcdp),
    part(
      'gaussian-generic',
      'Gaussian mechanism, generic bound',
      formulas.groupGaussianGeneric,
      (result) => ({ ...result.generic.approx, per_record: result.generic.per_record }),
      {
        render: plain,
        note: (result) => `from its per-record ${describe(result.per_record)}: compare with the exact row`,
      },
    ),
    part(
      'gaussian-composition',
      'For contrast: k-fold composition of the Gaussian',
      formulas.groupGaussianComposition,
      (result) => result.composition,
      { note: () => 'k independent releases about one record, not one release about k records' },
    ),
  ];
}

/**
 * The table's rows: each description's answer, the Gaussian's parts, and the picked mechanism's;
 * those the headline answers (`answered`, row ids) are marked so (an example elsewhere is compared).
 */
function rowsOf(answers, picked, { form, inputs, own, answered }) {
  // A row whose own inputs the person did not set shows the example values, and says so.
  const example = (kind, text) => (own[kind] ? undefined : text);
  const value = (name) => inputs[name].trim();
  const row = (id, formula, render, exampleText) => ({
    id,
    label: answers[id].label,
    formula,
    response: answers[id].response,
    render,
    example: exampleText,
    fields: inputsOf(form, answers[id].fields, answers[id].request),
  });
  const approxExample = own.guarantee
    ? example('delta', `example δ = ${value('delta')}, not set by you`)
    : `example (ε, δ) = (${value('epsilon')}, ${value('delta')}), not set by you`;
  const gaussian = {
    ...row(
      'gaussian',
      formulas.groupGaussianExact,
      atDelta,
      example('gaussian', `example σ = ${value('sigma')}, not set by you`),
    ),
    note: () => 'mechanism-aware, exact at this δ',
  };
  const rows = [
    row('pure', formulas.groupPure, plain, example('guarantee', `example ε = ${value('epsilon')}, not set by you`)),
    row('approx', formulas.groupApprox, plain, approxExample),
    row('zcdp', formulas.groupZcdp, plain, example('zcdp', `example ρ = ${value('rho')}, not set by you`)),
    row('laplace', formulas.groupLaplace, plain, example('laplace', `example b = ${value('scale')}, not set by you`)),
    gaussian,
    ...gaussianParts(gaussian),
    {
      id: 'picked',
      label: `${picked.title}: ${picked.analysis}`,
      formula: picked.formula,
      response: picked.response,
      render: atDelta,
      note: picked.note,
      notApplicable: (error) => `Does not apply: ${error.message}`,
      example: example('picked', `example ${picked.words}, not set by you`),
      fields: inputsOf(form, picked.fields, picked.request),
    },
  ];
  return rows.map((item) => ({ ...item, answers: answered.includes(item.id) }));
}

async function updateGroup(section) {
  const { calculator, form, inputs, isCurrent, results, plots, errors, summary, isSet, explain } = section;
  const own = ownInputs(isSet);
  if (inputs.question === 'largest_k') {
    const answered = await answerAll(calculator, requests(inputs));
    if (!isCurrent()) return;
    const headline = solveGroup({ answered, inputs, form, own, results, plots, errors });
    summary(...headline);
    return;
  }
  const items = requests(inputs);
  const explained = asked(inputs, isSet)[0];
  const sent = (item) => (item.id === explained ? explainedItem(item) : item);
  const answering = answerAll(calculator, ofRole(items, 'row').map(sent));
  const catalog = await catalogOf(calculator);
  const { inputs: pickerInputs } = picker(form, catalog);
  const pickedItem = await answerItem(
    calculator,
    sent(requests(inputs, { catalog }).find((item) => item.id === 'picked')),
  );
  const answers = byId(await answering);
  if (!isCurrent()) return;
  const picked = pickedView(catalog, pickedItem, pickerInputs);
  const rows = rowsOf(answers, picked, { form, inputs, own, answered: asked(inputs, isSet) });
  results.replaceChildren(methodTable({ caption: `A group of k = ${inputs.k.trim()} records`, rows, errors }));
  const headlineAnswers = { ...answers, picked: { ...pickedItem, view: picked } };
  summary(...groupHeadline(headlineAnswers, { inputs, isSet }));
  const headlineItem = headlineAnswers[explained];
  if (headlineItem.response.ok) {
    const { request: of, response } = headlineItem;
    const k = of.k;
    explain({ of, response, one: k > 1 ? { ...of, k: 1 } : undefined, groupSize: k });
  }
  // The plots' requests (four per group size) are asked after the table is shown, so that its
  // answers do not wait for theirs.
  plotRange(form.elements.kmax, errors, kPlotRange);
  const points = await answerAll(calculator, ofRole(items, 'plot'));
  if (!isCurrent()) return;
  plots.replaceChildren(...plotFigures(points, own));
}

// Each plotted description: its series name, the y of an answer, its style key.
const kSeries = {
  pure: ['pure ε = kε', 'guarantee', (result) => result.guarantee.epsilon, 'group-pure'],
  zcdp: ['zCDP ρ = k²ρ', 'zcdp', (result) => result.guarantee.rho, 'group-zcdp'],
  gaussian: ['Gaussian ε at δ (exact)', 'gaussian', (result) => result.guarantee.epsilon, 'group-gaussian'],
  approx: [
    'approximate DP δ',
    'guarantee',
    (result) => (result.vacuous ? 1 : result.guarantee.delta),
    'group-approx-delta',
  ],
};

/** The two figures: ε or ρ against k, and the (ε, δ) bound's δ against k. */
function plotFigures(points, own) {
  // A curve drawn from example values the person did not set says so in the legend.
  const named = (name, kind) => (own[kind] || !Object.values(own).some(Boolean) ? name : `${name} (example values)`);
  const series = { parameters: [], deltas: [] };
  for (const point of points) {
    if (!point.response.ok) continue;
    const [name, kind, y, key] = kSeries[point.kind];
    const value = y(point.response.result);
    if (Number.isFinite(value) && (point.target !== 'deltas' || value > 0))
      series[point.target].push({ series: named(name, kind), key, x: point.k, y: value });
  }
  return [
    chartFigure(series.parameters, {
      title: 'Group privacy grows with k: linear for ε, quadratic for ρ',
      xLabel: 'group size k',
      yLabel: 'ε or ρ',
      yName: 'privacy parameter of the group: ε (pure DP and Gaussian) or ρ (zCDP)',
      description: 'Privacy parameter of a group against its size, for each definition.',
      file: 'dpcalc-group-parameters',
    }),
    chartFigure(series.deltas, {
      title: 'δ of the generic (ε, δ) bound grows exponentially with k (capped at 1: vacuous)',
      xLabel: 'group size k',
      yLabel: 'δ',
      yName: 'failure probability δ of the group',
      yLog: true,
      description: 'δ of the approximate-DP group bound against group size.',
      file: 'dpcalc-group-delta',
    }),
  ];
}

export { updateGroup };
