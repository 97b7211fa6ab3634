// Several databases: releases on many databases (classes of identical ones), the footprints a person
// can have (at most m databases, exactly one, families of classes), unbounded or bounded neighbours,
// and an adversary with an uninformative prior ("in none" against "in at least one"), each composed
// by the chosen method (op 'databases', docs/API.md). The table puts classic, parallel, constrained
// (unbounded and bounded) and uninformative-prior side by side; the plots show ε against m and
// against the number of databases n. Every number comes from the core.
import { h, readNumber, showFieldErrors } from './dom.js';
import { guaranteeElement, methodTable, settleUnlessAborted } from './results.js';
import { chartFigure } from './chart.js';
import { formatNumber } from './format.js';
import { boundText, citeSentence, methodWords, paperGuarantee } from './headline.js';
import { renderPld } from './numeric.js';

const kClasses = ['a', 'b', 'c'];
const kMethods = {
  basic: { method: 'basic' },
  advanced_kov: { method: 'advanced', variant: 'kairouz' },
  advanced_drv: { method: 'advanced', variant: 'dwork_rothblum_vadhan' },
  optimal: { method: 'optimal' },
  zcdp: { method: 'zcdp' },
  pld: { method: 'pld' },
};

const tex = {
  classic: String.raw`\mathrm{Compose}\bigl(M_1,\dots,M_n\bigr)`,
  parallel: String.raw`M\cdot\max_c\, q_c\,\varepsilon_c`,
  unbounded: String.raw`\max_{F\ \text{allowed}}\ \mathrm{Compose}\bigl(\{M_i : i\in F\}\bigr)`,
  bounded: String.raw`\max_{F,\,F'\ \text{allowed}}\ \mathrm{Compose}\bigl(\{M_i : i\in F\cup F'\}\bigr)`,
  uninformative: String.raw`\varepsilon = \ln\frac{2^n e^{\varepsilon_u}-1}{2^n-1},\ \ \varepsilon_u = \mathrm{Compose}\bigl(M_i\ \text{subsampled at}\ \tfrac12\bigr);\ \ \text{pure, basic: } \ln\frac{\prod_i (1+e^{\varepsilon_i})-1}{2^n-1}`,
};

const inputOf = (form, name) => form.elements[name];

/** The classes the form describes (count > 0), each with the inputs its request fields map to. */
function classesFromForm(form) {
  const classes = [];
  for (const [shown, prefix] of kClasses.entries()) {
    const input = (name) => inputOf(form, `${prefix}_${name}`);
    const count = readNumber(input('count'));
    if (count === 0 && prefix !== 'a') continue;
    const kind = input('kind').value;
    const index = classes.length;
    const path = `databases.${index}`;
    const release =
      kind === 'guarantee'
        ? {
            guarantee:
              readNumber(input('delta')) === 0
                ? { type: 'pure', epsilon: readNumber(input('epsilon')) }
                : { type: 'approx', epsilon: readNumber(input('epsilon')), delta: readNumber(input('delta')) },
          }
        : {
            mechanism:
              kind === 'laplace'
                ? { type: 'laplace', scale: readNumber(input('scale')) }
                : { type: 'gaussian', sigma: readNumber(input('sigma')) },
          };
    classes.push({
      shown: shown + 1,
      request: { ...release, count, queries: readNumber(input('queries')) },
      fields: {
        [`${path}.count`]: input('count'),
        [`${path}.queries`]: input('queries'),
        [`${path}.guarantee.epsilon`]: input('epsilon'),
        [`${path}.guarantee.delta`]: input('delta'),
        [`${path}.mechanism.scale`]: input('scale'),
        [`${path}.mechanism.sigma`]: input('sigma'),
        [`${path}.mechanism`]: input('kind'),
        [`${path}.guarantee.type`]: input('kind'),
      },
    });
  }
  return classes;
}

/** "1+2, 1+3" (class numbers as shown) → [[0, 1], [0, 2]] (request indices); unknown numbers stay out of range. */
function familiesOf(text, classes) {
  const index = new Map(classes.map((item, i) => [item.shown, i]));
  return text
    .split(/[,;]/)
    .map((family) => family.trim())
    .filter(Boolean)
    .map((family) => family.split('+').map((number) => index.get(Number(number.trim())) ?? 99));
}

function constraintOf(form, classes) {
  const type = inputOf(form, 'constraint').value;
  if (type === 'at_most') return { type, m: readNumber(inputOf(form, 'm')) };
  if (type === 'families') return { type, families: familiesOf(inputOf(form, 'families').value, classes) };
  return { type };
}

function renderResult(result) {
  if (typeof result.epsilon_upper === 'number') return renderPld(result);
  return guaranteeElement(result.guarantee, { vacuous: result.vacuous });
}

function noteOf(result) {
  const parts = [];
  if (result.footprint)
    parts.push(
      `worst footprint: ${result.footprint.databases.toLocaleString('en-US')} databases, ${result.footprint.releases.toLocaleString('en-US')} releases`,
    );
  if (result.note) parts.push(result.note);
  return parts.join('; ');
}

const unsupported = (message) => ({ ok: false, error: { code: 'unsupported', field: '', message } });
const epsilonOf = (response) =>
  response?.ok && !response.result.vacuous
    ? (response.result.guarantee.epsilon ?? response.result.guarantee.rho)
    : undefined;

/** m values to plot: 1 … the number of databases, about `points` of them, log-spaced. */
function logRange(upTo, points) {
  const values = new Set([1, upTo]);
  for (let i = 1; i < points - 1; i += 1) values.add(Math.max(1, Math.round(upTo ** (i / (points - 1)))));
  return [...values].sort((a, b) => a - b);
}

async function updateDatabases({
  calculator,
  form,
  isCurrent,
  results,
  plots,
  errors,
  signal,
  summary,
  isSet,
  explain,
}) {
  const classes = classesFromForm(form);
  const methodName = inputOf(form, 'method').value;
  const delta = readNumber(inputOf(form, 'delta'));
  const base = {
    op: 'databases',
    ...kMethods[methodName],
    ...(methodName === 'basic' ? {} : { delta }),
    databases: classes.map((item) => item.request),
  };
  const constraint = constraintOf(form, classes);
  const fields = Object.assign(
    {
      delta: inputOf(form, 'delta'),
      'constraint.m': inputOf(form, 'm'),
      constraint: inputOf(form, 'constraint'),
      'constraint.families': inputOf(form, 'families'),
      adversary: inputOf(form, 'adversary'),
    },
    ...classes.map((item) => item.fields),
  );
  for (const [i, family] of (constraint.families ?? []).entries()) {
    fields[`constraint.families.${i}`] = inputOf(form, 'families');
    family.forEach((_, j) => {
      fields[`constraint.families.${i}.${j}`] = inputOf(form, 'families');
    });
  }
  const numeric = methodName === 'pld';
  const ask = (request) => settleUnlessAborted(calculator.run(request, numeric ? { signal } : {}));
  // Pure releases have a pure answer (basic composition), which the headline gives first.
  const pure = classes.every(
    (item) => item.request.guarantee?.type === 'pure' || item.request.mechanism?.type === 'laplace',
  );
  const basic = { op: 'databases', method: 'basic', databases: base.databases };
  const requests = {
    classic: { ...base, constraint: { type: 'none' } },
    unbounded: { ...base, constraint, neighbours: 'unbounded' },
    bounded: { ...base, constraint, neighbours: 'bounded' },
    uninformative: { ...base, constraint: { type: 'none' }, adversary: 'uninformative' },
    ...(pure && methodName !== 'basic'
      ? {
          pureUnbounded: { ...basic, constraint, neighbours: 'unbounded' },
          pureBounded: { ...basic, constraint, neighbours: 'bounded' },
          pureUninformative: { ...basic, constraint: { type: 'none' }, adversary: 'uninformative' },
        }
      : {}),
  };
  const total = classes.reduce((sum, item) => sum + (Number.isFinite(item.request.count) ? item.request.count : 0), 0);
  const mValues = total >= 2 ? logRange(Math.min(total, 1e6), numeric ? 6 : 16) : [];
  const first = classes[0].request;
  const nValues = logRange(
    Math.max(2, Math.min(Number.isFinite(first.count) ? first.count : 2, 1e6)),
    numeric ? 6 : 16,
  );
  const single = (n) => ({ ...base, databases: [{ ...first, count: n }], constraint: { type: 'none' } });
  let responses;
  let mResponses;
  let nResponses;
  // The panel explains the answer the headline gives: the constrained one, or the uninformative prior's.
  // That answer is asked first and its panel next, before any other numeric request: the panel reads
  // the PLDs this answer kept.
  const explained = inputOf(form, 'adversary').value === 'uninformative' ? 'uninformative' : 'unbounded';
  try {
    const headline = await ask(requests[explained]);
    if (!isCurrent()) return;
    if (headline.ok) explain({ of: requests[explained] });
    responses = Object.fromEntries(
      await Promise.all(
        Object.entries(requests).map(async ([name, request]) => [
          name,
          name === explained ? headline : await ask(request),
        ]),
      ),
    );
    mResponses = await Promise.all(
      mValues.flatMap((m) =>
        ['unbounded', 'bounded'].map((neighbours) => ask({ ...base, constraint: { type: 'at_most', m }, neighbours })),
      ),
    );
    nResponses = await Promise.all(
      nValues.flatMap((n) => [ask(single(n)), ask({ ...single(n), adversary: 'uninformative' })]),
    );
  } catch (error) {
    if (error?.name === 'AbortError') return;
    throw error;
  }
  if (!isCurrent()) return;

  const parallel = responses.unbounded.ok
    ? responses.unbounded.result.parallel
      ? { ok: true, result: responses.unbounded.result.parallel }
      : unsupported('McSherry’s parallel composition takes pure ε-DP releases only.')
    : responses.unbounded;
  const rows = [
    { id: 'classic', label: 'Classic composition (every release)', formula: tex.classic, response: responses.classic },
    { id: 'parallel', label: 'Parallel composition of the merged database', formula: tex.parallel, response: parallel },
    {
      id: 'unbounded',
      label: 'Constrained, unbounded (record present or absent)',
      formula: tex.unbounded,
      response: responses.unbounded,
    },
    {
      id: 'bounded',
      label: 'Constrained, bounded (record replaced)',
      formula: tex.bounded,
      response: responses.bounded,
    },
    {
      id: 'uninformative',
      label: 'Uninformative prior (in none vs. in at least one)',
      formula: tex.uninformative,
      response: responses.uninformative,
    },
  ].map((row) => ({
    ...row,
    render: renderResult,
    note: noteOf,
    fields,
    notApplicable: (error) => `Does not apply: ${error.message}`,
  }));
  const table = methodTable({
    caption: `${total.toLocaleString('en-US')} databases in ${classes.length} class${classes.length > 1 ? 'es' : ''}; method ${inputOf(form, 'method').selectedOptions[0].textContent}`,
    rows,
    errors,
  });
  results.replaceChildren(table);
  showFieldErrors(form, errors);
  const classicEpsilon = epsilonOf(responses.classic);
  summary(
    ...headlineOf(responses, {
      form,
      total,
      pure,
      methodName,
      uninformative: inputOf(form, 'adversary').value === 'uninformative',
      deltaSet: isSet('delta'),
    }),
  );

  const mPoints = [];
  mValues.forEach((m, i) => {
    for (const [j, key, series] of [
      [0, 'optimal', 'at most m, unbounded'],
      [1, 'advanced-kov', 'at most m, bounded (2m)'],
    ]) {
      const y = epsilonOf(mResponses[2 * i + j]);
      if (y > 0) mPoints.push({ series, key, x: m, y, xRole: 'given', yRole: 'upper' });
    }
    if (classicEpsilon > 0)
      mPoints.push({
        series: 'classic (every release)',
        key: 'basic',
        x: m,
        y: classicEpsilon,
        xRole: 'given',
        yRole: 'upper',
      });
  });
  const nPoints = [];
  nValues.forEach((n, i) => {
    for (const [j, key, series] of [
      [0, 'basic', 'worst case'],
      [1, 'zcdp', 'uninformative prior'],
    ]) {
      const y = epsilonOf(nResponses[2 * i + j]);
      if (y > 0) nPoints.push({ series, key, x: n, y, xRole: 'given', yRole: 'upper' });
    }
  });
  plots.replaceChildren(
    h(
      'div',
      { class: 'chart-holder' },
      chartFigure(mPoints, {
        title: 'ε against m, the most databases one person can be in',
        xLabel: 'm',
        yLabel: 'ε',
        xName: 'most databases m one person can be in',
        yName: 'privacy loss ε of the person',
        xLog: true,
        yLog: true,
        file: 'dpcalc-databases-m',
        description:
          'Guarantee for a person in at most m of the databases, unbounded and bounded neighbours, against classic composition; log-log axes.',
        emptyText: 'Nothing to plot: no answer for these inputs.',
      }),
    ),
    h(
      'div',
      { class: 'chart-holder' },
      chartFigure(nPoints, {
        title: 'ε against the number of databases n (class 1): worst case and uninformative prior',
        xLabel: 'number of databases n',
        yLabel: 'ε',
        yName: 'privacy loss ε of the person',
        xLog: true,
        yLog: true,
        file: 'dpcalc-databases-n',
        description:
          'Worst-case composition of n databases of class 1 against the adversary with an uninformative prior; log-log axes.',
        emptyText: 'Nothing to plot: no answer for these inputs.',
      }),
    ),
  );
}

/** Who the guarantee is for, in words: "A person in at most 365 of the 1,000 databases". */
function personWords(form, total, uninformative) {
  const constraint = inputOf(form, 'constraint').value;
  const count = total.toLocaleString('en-US');
  if (uninformative)
    return `Membership in any of the ${count} databases, against an adversary with an uninformative prior`;
  if (constraint === 'at_most')
    return `A person in at most ${inputOf(form, 'm').value.trim()} of the ${count} databases`;
  if (constraint === 'exactly_one') return `A person in exactly one of the ${count} databases`;
  if (constraint === 'families') return `A person in the databases of one family of classes (of ${count})`;
  return `A person in any of the ${count} databases`;
}

/** A result's bound as the headline says it ("ε ≤ 365", "ρ ≤ 2") and the δ it holds at (0 when pure). */
function boundOf(response) {
  if (!response?.ok || response.result.vacuous) return null;
  const { guarantee } = response.result;
  if (guarantee.type === 'zcdp') return { text: boundText(guarantee), delta: 0 };
  return { text: boundText({ type: 'pure', epsilon: guarantee.epsilon }), delta: guarantee.delta ?? 0 };
}

/**
 * The headline for the person's adversary (worst case: unbounded and bounded neighbours; or the
 * uninformative prior): for pure releases the pure answers first (basic composition), then the
 * chosen method's at the target δ (said to be an example δ when the person did not set it).
 * Returns [text, { cite }].
 */
function headlineOf(responses, { form, total, pure, methodName, uninformative, deltaSet }) {
  const cases = uninformative
    ? [{ key: 'uninformative', pureKey: 'pureUninformative', words: 'in none vs. in at least one' }]
    : [
        { key: 'unbounded', pureKey: 'pureUnbounded', words: 'unbounded' },
        { key: 'bounded', pureKey: 'pureBounded', words: 'bounded' },
      ];
  const pureFirst = pure && methodName !== 'basic';
  // "ε ≤ 365 (unbounded), ε ≤ 730 (bounded)", after "at δ = 10⁻⁵: " when the bounds hold at one δ.
  const listed = (keyOf) => {
    const bounds = cases.map((item) => ({ ...boundOf(responses[keyOf(item)]), words: item.words }));
    const shown = bounds.filter((bound) => bound.text);
    const deltas = [...new Set(shown.map((bound) => bound.delta))];
    const at =
      deltas.length === 1 && deltas[0] > 0 ? `at δ = ${formatNumber(deltas[0], 'down').replace(/^1 × /, '')}: ` : '';
    const text = shown
      .map(
        (bound) =>
          `${bound.text}${!at && bound.delta > 0 ? ` at δ = ${formatNumber(bound.delta, 'down')}` : ''} (${bound.words})`,
      )
      .join(', ');
    return text ? `${at}${text}` : '';
  };
  const parts = [];
  const pureText = pureFirst ? listed((item) => item.pureKey) : '';
  if (pureText) parts.push(`pure ${pureText}, by basic composition`);
  const chosenText = listed((item) => item.key);
  if (chosenText) {
    const method = methodWords(responses[cases[0].key].result?.method ?? '');
    const example = pureFirst && !deltaSet ? ' (at the example δ, not set by you)' : '';
    parts.push(`${chosenText}, by ${method}${example}`);
  }
  if (parts.length === 0) return ['No guarantee for these inputs: see the table.'];
  const first = [cases[0].pureKey, cases[0].key]
    .map((key) => responses[key])
    .find((response) => response?.ok && !response.result.vacuous);
  const person = personWords(form, total, uninformative);
  const cite = first
    ? citeSentence({
        subject: `For ${person.replace(/^A /, 'a ').replace(/^Membership/, 'membership')}, the releases`,
        verb: 'satisfy',
        guarantee: paperGuarantee(first.result.guarantee, { deltaIsGiven: true }),
        scope: uninformative ? '' : `(${cases[0].words} neighbours)`,
        method: methodWords(first.result.method),
        citation: first.result.citation,
      })
    : '';
  return [`${person}: ${parts.join('; ')}.`, { cite }];
}

export { updateDatabases };
