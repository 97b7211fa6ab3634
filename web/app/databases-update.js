// Several databases on the page: the table puts classic, parallel, constrained (unbounded and
// bounded) and uninformative-prior composition side by side (databases-requests.js, op 'databases',
// docs/API.md); the plots show ε against m and against the number of databases n. Every number
// comes from the core.
import { h, showFieldErrors } from './dom.js';
import { guaranteeElement, inputsOf, methodTable } from './results.js';
import { answerAll, answerItem, byId, ofRole } from './ask.js';
import { explainedItem } from './explained.js';
import { chartFigure } from './chart.js';
import { renderPld } from './numeric.js';
import { classesOf, explainedRow, isPure, requests, totalOf } from './databases-requests.js';
import { databasesHeadline } from './databases-headline.js';

const tex = {
  classic: String.raw`\mathrm{Compose}\bigl(M_1,\dots,M_n\bigr)`,
  parallel: String.raw`M\cdot\max_c\, q_c\,\varepsilon_c`,
  unbounded: String.raw`\max_{F\ \text{allowed}}\ \mathrm{Compose}\bigl(\{M_i : i\in F\}\bigr)`,
  bounded: String.raw`\max_{F,\,F'\ \text{allowed}}\ \mathrm{Compose}\bigl(\{M_i : i\in F\cup F'\}\bigr)`,
  uninformative: String.raw`\varepsilon = \ln\frac{2^n e^{\varepsilon_u}-1}{2^n-1},\ \ \varepsilon_u = \mathrm{Compose}\bigl(M_i\ \text{subsampled at}\ \tfrac12\bigr);\ \ \text{pure, basic: } \ln\frac{\prod_i (1+e^{\varepsilon_i})-1}{2^n-1}`,
};

const kRows = ['classic', 'parallel', 'unbounded', 'bounded', 'uninformative'];
const kParallelLabel = 'Parallel composition of the merged database';

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

/** The table's rows; parallel composition comes with the unbounded answer. */
function rowsOf(answers, form) {
  const { unbounded } = answers;
  const parallel = unbounded.response.ok
    ? unbounded.response.result.parallel
      ? { ok: true, result: unbounded.response.result.parallel }
      : unsupported('McSherry’s parallel composition takes pure ε-DP releases only.')
    : unbounded.response;
  const fields = inputsOf(form, unbounded.fields, unbounded.request);
  for (const item of Object.values(answers)) inputsOf(form, item.fields, item.request);
  return kRows.map((id) => ({
    id,
    label: id === 'parallel' ? kParallelLabel : answers[id].label,
    formula: tex[id],
    response: id === 'parallel' ? parallel : answers[id].response,
    render: renderResult,
    note: noteOf,
    fields,
    notApplicable: (error) => `Does not apply: ${error.message}`,
  }));
}

/**
 * Asks the rows, the explained one first and its panel next, before any other numeric request (the
 * panel reads the PLDs this answer kept), then the plots'. Resolves to { rows, m, n } (answered
 * items), or null when cancelled or stale.
 */
async function answersOf(section, items, options) {
  const { calculator, inputs, isCurrent, explain } = section;
  const explained = explainedRow(inputs);
  const rows = ofRole(items, 'row');
  const first = rows.find((item) => item.id === explained);
  try {
    const headline = await answerItem(calculator, explainedItem(first), options);
    if (!isCurrent()) return null;
    if (headline.response.ok) explain({ of: headline.request, response: headline.response });
    const answered = await Promise.all(
      rows.map((item) => (item.id === explained ? headline : answerItem(calculator, item, options))),
    );
    const m = await answerAll(calculator, ofRole(items, 'plot-m'), options);
    const n = await answerAll(calculator, ofRole(items, 'plot-n'), options);
    return isCurrent() ? { rows: byId(answered), m, n } : null;
  } catch (error) {
    if (error?.name === 'AbortError') return null;
    throw error;
  }
}

async function updateDatabases(section) {
  const { form, inputs, results, plots, errors, signal, summary, isSet } = section;
  const items = requests(inputs);
  const answers = await answersOf(section, items, inputs.method === 'pld' ? { signal } : undefined);
  if (!answers) return;
  const classes = classesOf(inputs);
  const total = totalOf(classes);
  const method = form.elements.method.selectedOptions[0].textContent;
  const table = methodTable({
    caption: `${total.toLocaleString('en-US')} databases in ${classes.length} class${classes.length > 1 ? 'es' : ''}; method ${method}`,
    rows: rowsOf(answers.rows, form),
    errors,
  });
  results.replaceChildren(table);
  showFieldErrors(form, errors);
  const pure = isPure(classes);
  summary(...databasesHeadline(answers.rows, { inputs, total, pure, deltaSet: isSet('delta') }));
  plots.replaceChildren(...figures(answers, epsilonOf(answers.rows.classic.response)));
}

/** ε against m (with classic composition's ε as a line), and ε against n. */
function figures({ m, n }, classicEpsilon) {
  const mStyle = {
    unbounded: ['optimal', 'at most m, unbounded'],
    bounded: ['advanced-kov', 'at most m, bounded (2m)'],
  };
  const mPoints = [];
  for (const [i, item] of m.entries()) {
    const [key, series] = mStyle[item.neighbours];
    const y = epsilonOf(item.response);
    if (y > 0) mPoints.push({ series, key, x: item.x, y, xRole: 'given', yRole: 'upper' });
    if (i % 2 === 1 && classicEpsilon > 0)
      mPoints.push({
        series: 'classic (every release)',
        key: 'basic',
        x: item.x,
        y: classicEpsilon,
        xRole: 'given',
        yRole: 'upper',
      });
  }
  const nStyle = { worst_case: ['basic', 'worst case'], uninformative: ['zcdp', 'uninformative prior'] };
  const nPoints = [];
  for (const item of n) {
    const [key, series] = nStyle[item.adversary];
    const y = epsilonOf(item.response);
    if (y > 0) nPoints.push({ series, key, x: item.x, y, xRole: 'given', yRole: 'upper' });
  }
  const figure = (points, options) => h('div', { class: 'chart-holder' }, chartFigure(points, options));
  return [
    figure(mPoints, {
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
    figure(nPoints, {
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
  ];
}

export { updateDatabases };
