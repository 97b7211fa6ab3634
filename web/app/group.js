// Group privacy: what the guarantee of one record gives a person with k records, under every
// definition, generic and mechanism-aware bounds side by side, and a group of k against k-fold
// composition for the Gaussian mechanism.
import { h, readNumber } from './dom.js';
import { formatNumber, parseNumber } from './format.js';
import { boundText, citeSentence, givenNumber, methodWords, paperGuarantee } from './headline.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { chartFigure } from './chart.js';
import { plotRange } from './range.js';
import { catalogOf, freshSpec, requestOf, specWords } from './mechanism-picker.js';
import { notesOf } from './mechanism-notes.js';
import { pickedField, pickedMechanism } from './picked-mechanism.js';
import { solveGroup } from './group-solve.js';

function inputs(input) {
  return {
    question: input('question'),
    k: input('k'),
    kmax: input('kmax'),
    targetEpsilon: input('target_epsilon'),
    targetDelta: input('target_delta'),
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

async function updateGroup({ calculator, form, input, isCurrent, results, plots, errors, summary, isSet, explain }) {
  const fields = inputs(input);
  const values = Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => name !== 'kmax' && name !== 'question')
      .map(([name, input]) => [name, readNumber(input)]),
  );
  if (fields.question.value === 'largest_k') {
    const own = ownInputs(isSet);
    const headline = await solveGroup({ calculator, values, fields, own, results, plots, errors, isCurrent });
    if (headline) summary(...headline);
    return;
  }
  const k = values.k;
  const base = requests(values, k);
  const names = Object.keys(base);
  const answers = await askAll(
    calculator,
    names.map((name) => base[name]),
  );
  const responses = Object.fromEntries(answers.map((response, i) => [names[i], response]));
  const picked = await pickedAnswer({ calculator, form, k, delta: values.gaussianDelta });
  if (!isCurrent()) return;

  const kField = { k: fields.k };
  const mechanismFields = {
    'mechanism.sigma': fields.sigma,
    'mechanism.sensitivity': fields.sensitivity,
    delta: fields.gaussianDelta,
  };
  // The per-record guarantee and the mechanisms are alternatives: a row whose own inputs the person
  // did not set shows the example values, and says so.
  const own = ownInputs(isSet);
  const example = (kind, text) => (own[kind] ? undefined : text);
  const gaussianExample = example('gaussian', `example σ = ${fields.sigma.value.trim()}, not set by you`);
  const rows = [
    {
      id: 'pure',
      label: 'Pure ε-DP',
      formula: formulas.groupPure,
      response: responses.pure,
      render: plain,
      example: example('guarantee', `example ε = ${fields.epsilon.value.trim()}, not set by you`),
      fields: { ...kField, 'guarantee.epsilon': fields.epsilon },
    },
    {
      id: 'approx',
      label: 'Approximate (ε, δ)-DP',
      formula: formulas.groupApprox,
      response: responses.approx,
      render: plain,
      example: own.guarantee
        ? example('delta', `example δ = ${fields.delta.value.trim()}, not set by you`)
        : `example (ε, δ) = (${fields.epsilon.value.trim()}, ${fields.delta.value.trim()}), not set by you`,
      fields: { ...kField, 'guarantee.epsilon': fields.epsilon, 'guarantee.delta': fields.delta },
    },
    {
      id: 'zcdp',
      label: 'ρ-zCDP',
      formula: formulas.groupZcdp,
      response: responses.zcdp,
      render: plain,
      example: example('zcdp', `example ρ = ${fields.rho.value.trim()}, not set by you`),
      fields: { ...kField, 'guarantee.rho': fields.rho },
    },
    {
      id: 'laplace',
      label: 'Laplace mechanism (b, Δ)',
      formula: formulas.groupLaplace,
      response: responses.laplace,
      render: plain,
      example: example('laplace', `example b = ${fields.scale.value.trim()}, not set by you`),
      fields: { ...kField, 'mechanism.scale': fields.scale, 'mechanism.sensitivity': fields.sensitivity },
    },
    {
      id: 'gaussian',
      label: 'Gaussian mechanism (σ, Δ): exact',
      formula: formulas.groupGaussianExact,
      response: responses.gaussian,
      render: atDelta,
      note: () => 'mechanism-aware, exact at this δ',
      example: gaussianExample,
      fields: { ...kField, ...mechanismFields },
    },
    {
      id: 'gaussian-zcdp',
      label: 'Gaussian mechanism via zCDP',
      formula: formulas.groupGaussianZcdp,
      response: partOf(responses.gaussian, (result) => result.generic.zcdp),
      render: zcdpThenApprox,
      example: gaussianExample,
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
      example: gaussianExample,
      fields: { ...kField, ...mechanismFields },
    },
    {
      id: 'gaussian-composition',
      label: 'For contrast: k-fold composition of the Gaussian',
      formula: formulas.groupGaussianComposition,
      response: partOf(responses.gaussian, (result) => result.composition),
      render: zcdpThenApprox,
      note: () => 'k independent releases about one record, not one release about k records',
      example: gaussianExample,
      fields: { ...kField, ...mechanismFields },
    },
    {
      id: 'picked',
      label: `${picked.title}: ${picked.analysis}`,
      formula: picked.formula,
      response: picked.response,
      render: atDelta,
      note: picked.note,
      notApplicable: (error) => `Does not apply: ${error.message}`,
      example: example('picked', `example ${picked.words}, not set by you`),
      fields: { ...kField, ...picked.fields, delta: fields.gaussianDelta },
    },
  ];
  results.replaceChildren(methodTable({ caption: `A group of k = ${fields.k.value.trim()} records`, rows, errors }));
  summary(...headlineOf(fields, responses, own, picked));
  const explained = explainedKind(fields, own);
  const of = explained === 'picked' ? picked.request : base[explained];
  if ((explained === 'picked' ? picked.response : responses[explained]).ok) {
    explain({ of, one: k > 1 ? { ...of, k: 1 } : undefined, groupSize: k });
  }
  // The plots' requests (four per group size) are asked after the table is shown, so that its
  // answers do not wait for theirs.
  const series = await plotSeries(calculator, values, fields, errors, own);
  if (!isCurrent()) return;
  plots.replaceChildren(
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
  );
}

const kGenericGroupFormula = String.raw`\text{the mechanism's own analysis at group size } k`;

/** What the answer over a privacy profile rests on: one record's (ε, δ), and that it is generic. */
const profileNote = (result) =>
  result.per_record.type === 'pure'
    ? `from its per-record ε = ${formatNumber(result.per_record.epsilon)} (pure): generic, not a tight group analysis`
    : `from its per-record ${describe(result.per_record)}: generic, not a tight group analysis`;

/**
 * The group guarantee of the mechanism picked from the core's catalog (mechanism-picker.js): asked
 * without δ, again under substitution when the mechanism has a pair for that relation only, and again
 * at the Gaussian target δ when the core needs one (a mechanism whose group guarantee is not pure).
 * { title, words, formula, request (the one answered), response, fields, overProfile (answered by group
 * privacy over its privacy profile, having no group transform of its own), analysis and note (for its
 * row) }.
 */
async function pickedAnswer({ calculator, form, k, delta }) {
  const catalog = await catalogOf(calculator);
  const { spec, picker } = pickedMechanism(form, {
    name: 'mechanism',
    slot: 'picked',
    idPrefix: 'group-mechanism',
    label: 'Mechanism',
    catalog,
    fallback: () => freshSpec(catalog, catalog.types[0].name),
  });
  const chosen = spec();
  const { request, fields } = requestOf(catalog, chosen, 'mechanism', picker.inputs);
  let asked = { op: 'group', k, mechanism: request };
  let [response] = await askAll(calculator, [asked]);
  // Without a relation the core refuses a mechanism that has no pair under add/remove on its type.
  for (const [field, value] of [
    ['mechanism.type', { relation: 'substitute' }],
    ['delta', { delta }],
  ]) {
    if (response.ok || response.error.code !== 'invalid_argument' || response.error.field !== field) continue;
    asked = { ...asked, ...value };
    [response] = await askAll(calculator, [asked]);
  }
  const type = catalog.types.find((candidate) => candidate.name === chosen.type);
  const overProfile = response.ok && response.result.per_record !== undefined;
  const pure = overProfile && response.result.per_record.type === 'pure';
  const substitute = asked.relation === 'substitute';
  const note =
    overProfile || substitute
      ? (result) =>
          [substitute ? 'neighbours: one record replaced' : '', overProfile ? profileNote(result) : '']
            .filter(Boolean)
            .join('; ')
      : undefined;
  return {
    title: type?.title ?? chosen.type,
    words: specWords(catalog, chosen),
    formula: overProfile
      ? formulas[pure ? 'groupPure' : 'groupOverProfile']
      : (notesOf(chosen.type).tex ?? kGenericGroupFormula),
    analysis: overProfile ? `group privacy ${pure ? 'of its pure ε' : 'over its privacy profile'}` : 'mechanism-aware',
    request: asked,
    response,
    fields,
    overProfile,
    note,
  };
}

/** Which of the alternative descriptions of a record the person gave (inputs they set). */
function ownInputs(isSet) {
  return {
    picked: isSet('mechanism'),
    guarantee: isSet('epsilon') || isSet('delta'),
    delta: isSet('delta'),
    zcdp: isSet('rho'),
    laplace: isSet('scale'),
    gaussian: isSet('sigma') || isSet('gaussian_delta'),
  };
}

/** Which request "What an attacker can do" explains: the headline's first description of a record. */
function explainedKind(fields, own) {
  const kind = ['guarantee', 'zcdp', 'laplace', 'gaussian', 'picked'].find((name) => own[name]) ?? 'guarantee';
  if (kind !== 'guarantee') return kind;
  return parseNumber(fields.delta.value) === 0 || (own.guarantee && !own.delta) ? 'pure' : 'approx';
}

/**
 * The headline: the group's guarantee for what the person described, in their own terms (pure or
 * (ε, δ) at their δ, zCDP, or a mechanism), in the form's order; with nothing set, the form's first
 * description, said to be the example. Returns [text, { cite }] for the section's summary.
 */
function headlineOf(fields, responses, own, picked) {
  const k = fields.k.value.trim();
  const chosen = ['guarantee', 'zcdp', 'laplace', 'gaussian', 'picked'].filter((kind) => own[kind]);
  const kinds = chosen.length ? chosen : ['guarantee'];
  const value = (input) => {
    const number = parseNumber(input.value);
    return Number.isNaN(number) ? input.value.trim() : givenNumber(number);
  };
  // Pure when δ is 0, or when the person gave an ε and no δ (the δ shown is then only an example).
  const pureRecord = parseNumber(fields.delta.value) === 0 || (own.guarantee && !own.delta);
  const parts = [];
  let cite = '';
  for (const kind of kinds) {
    if (kind === 'guarantee') {
      const response = pureRecord ? responses.pure : responses.approx;
      if (!response.ok || response.result.vacuous) continue;
      const record = pureRecord
        ? `${value(fields.epsilon)}-DP per record`
        : `(${value(fields.epsilon)}, ${value(fields.delta)})-DP per record`;
      parts.push(`${boundText(response.result.guarantee)} (from ${record})`);
      cite ||= citeSentence({
        subject: `A group of ${k} records`,
        guarantee: paperGuarantee(response.result.guarantee),
        scope: `when each record is ${record.replace(' per record', '')}`,
        method: `group privacy (${pureRecord ? 'pure DP' : 'approximate DP'})`,
        citation: response.result.citation,
      });
    } else if (kind === 'zcdp' && responses.zcdp.ok) {
      parts.push(`${boundText(responses.zcdp.result.guarantee)} (from ρ = ${value(fields.rho)} per record)`);
      cite ||= citeSentence({
        subject: `A group of ${k} records`,
        guarantee: paperGuarantee(responses.zcdp.result.guarantee),
        scope: `when each record is ${value(fields.rho)}-zCDP`,
        method: 'group privacy of zCDP',
        citation: responses.zcdp.result.citation,
      });
    } else if (kind === 'laplace' && responses.laplace.ok) {
      parts.push(`${boundText(responses.laplace.result.guarantee)} (Laplace mechanism, b = ${value(fields.scale)})`);
      cite ||= citeSentence({
        subject: `The Laplace mechanism (b = ${value(fields.scale)}, sensitivity ${value(fields.sensitivity)})`,
        guarantee: paperGuarantee(responses.laplace.result.guarantee),
        scope: `for a group of ${k} records`,
        method: 'the Laplace mechanism at sensitivity kΔ',
        citation: responses.laplace.result.citation,
      });
    } else if (kind === 'gaussian' && responses.gaussian.ok && !responses.gaussian.result.vacuous) {
      const { guarantee } = responses.gaussian.result;
      parts.push(
        `${boundText(guarantee, { deltaIsGiven: true })} (Gaussian mechanism, σ = ${value(fields.sigma)}, exact)`,
      );
      cite ||= citeSentence({
        subject: `The Gaussian mechanism (σ = ${value(fields.sigma)}, sensitivity ${value(fields.sensitivity)})`,
        guarantee: paperGuarantee(guarantee, { deltaIsGiven: true }),
        scope: `for a group of ${k} records`,
        method: 'the exact (ε, δ) of the Gaussian mechanism at sensitivity kΔ',
        citation: responses.gaussian.result.citation,
      });
    } else if (kind === 'picked' && picked.response.ok && !picked.response.result.vacuous) {
      const { guarantee } = picked.response.result;
      const deltaIsGiven = guarantee.type === 'approx';
      parts.push(
        `${boundText(guarantee, { deltaIsGiven })} (${picked.words}${picked.overProfile ? ', a generic bound' : ''})`,
      );
      cite ||= citeSentence({
        subject: `The ${picked.words}`,
        guarantee: paperGuarantee(guarantee, { deltaIsGiven }),
        scope: `for a group of ${k} records`,
        method: methodWords(picked.response.result.method),
        citation: picked.response.result.citation,
      });
    }
  }
  if (parts.length === 0) return ['No answer: check the marked fields.'];
  const example = chosen.length ? '' : 'Example: ';
  return [`${example}A group of ${k} records: ${parts.join('; ')}.`, { cite }];
}

async function plotSeries(calculator, values, fields, errors, own) {
  const ks = plotRange(fields.kmax, errors, { max: 1000, points: 40, log: false });
  // A curve drawn from example values the person did not set says so in the legend.
  const named = (name, kind) => (own[kind] || !Object.values(own).some(Boolean) ? name : `${name} (example values)`);
  const kinds = [
    ['pure', named('pure ε = kε', 'guarantee'), (result) => result.guarantee.epsilon, 'group-pure'],
    ['zcdp', named('zCDP ρ = k²ρ', 'zcdp'), (result) => result.guarantee.rho, 'group-zcdp'],
    ['gaussian', named('Gaussian ε at δ (exact)', 'gaussian'), (result) => result.guarantee.epsilon, 'group-gaussian'],
  ];
  const jobs = ks.flatMap((k) => {
    const base = requests(values, k);
    return [
      ...kinds.map(([name, series, y, key]) => ({ k, request: base[name], series, key, y, target: 'parameters' })),
      {
        k,
        request: base.approx,
        series: named('approximate DP δ', 'guarantee'),
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
      slot: 'picked',
      fields: [pickedField('mechanism', 'Mechanism')],
    },
  ],
  update: updateGroup,
};
