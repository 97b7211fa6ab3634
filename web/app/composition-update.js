// Composition: a ledger of releases (ledger.js: each a mechanism of the core's catalog or an
// (ε₀, δ₀)-DP guarantee, run a number of times), composed by every closed-form method and by the
// numeric PLD method in one table, the tightest marked; each release's part of the budget
// (ledger-shares.js); ε against the number of compositions (for a ledger of one release); and the
// privacy profile δ(ε) of every method side by side. Closed forms answer at once; the PLD runs in
// the numeric worker with a progress bar and can be cancelled, by its button or by any new input.
import { h, readNumber, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodRow, methodTable, settleUnlessAborted } from './results.js';
import { chartFigure } from './chart.js';
import { formatNumber, parseNumber } from './format.js';
import { boundText, citeSentence, givenNumber, methodWords, paperGuarantee } from './headline.js';
import { plotRange } from './range.js';
import { numericStatus, pldNote, profileEpsilons, renderPld } from './numeric.js';
import { catalogOf, opTakes } from './mechanism-picker.js';
import { ledgerEditor, ledgerText, parseLedger, rowWords } from './ledger.js';
import { ledgerTable, setAlone, shareRequests } from './ledger-shares.js';
import { solveComposition } from './composition-solve.js';
import { moreDigits } from './more-digits.js';

// Each method: its request for the releases `items` ([{ …item, count }]) at total δ target `delta`.
export const compositionMethods = [
  {
    id: 'basic',
    label: 'Basic composition',
    formula: formulas.basic,
    request: (items) => ({ op: 'compose', method: 'basic', items }),
  },
  {
    id: 'parallel',
    label: 'Parallel composition (disjoint records only)',
    formula: formulas.parallel,
    request: (items) => ({ op: 'compose', method: 'parallel', items }),
  },
  {
    id: 'advanced-drv',
    label: 'Advanced composition (Dwork–Rothblum–Vadhan)',
    formula: formulas.advancedDrv,
    request: (items, delta) => ({ op: 'compose', method: 'advanced', variant: 'dwork_rothblum_vadhan', delta, items }),
  },
  {
    id: 'advanced-kov',
    label: 'Advanced composition (Kairouz–Oh–Viswanath)',
    formula: formulas.advancedKov,
    request: (items, delta) => ({ op: 'compose', method: 'advanced', variant: 'kairouz', delta, items }),
  },
  {
    id: 'optimal',
    label: 'Optimal composition (exact)',
    formula: formulas.optimal,
    request: (items, delta) => ({ op: 'compose', method: 'optimal', delta, items }),
  },
  {
    id: 'zcdp',
    label: 'zCDP composition',
    formula: formulas.zcdp,
    request: (items, delta) => ({ op: 'compose', method: 'zcdp', delta, items }),
  },
  {
    id: 'rdp',
    label: 'Rényi DP composition',
    formula: formulas.rdp,
    request: (items, delta) => ({ op: 'compose', method: 'rdp', delta, items }),
  },
];

const kPldLabel = 'PLD (numeric, tight)';
const kPldSeries = { upper: 'PLD upper bound', lower: 'PLD lower bound' };
// The δ targets at which every closed-form method is asked for its ε (the privacy-profile plot);
// the PLD curves are shown down to the same smallest δ (below it, its upper bound flattens at the
// tail mass it cut and its lower bound reaches 0, which a log axis cannot show).
const kProfileDeltas = Array.from({ length: 12 }, (_, i) => 10 ** (i - 12));
const kProfileFloor = kProfileDeltas[0];

/** The (ε, δ) a composition result promises: zCDP results carry it in `approx`. */
export const approxOf = (result) => result.approx ?? result.guarantee;

/** A pure item when δ₀ is exactly 0 (so zCDP composition applies), an approximate one otherwise. */
export function itemOf(epsilon, delta) {
  return { guarantee: delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta } };
}

const inputOf = (form, name) => form.elements[name];

/**
 * The one release that the inputs of earlier versions described (kind, its parameters, count):
 * the ledger of a link or a visit that has no `ledger` input.
 */
function legacyRow(form) {
  const text = (name) => inputOf(form, name).value.trim();
  const kind = text('kind');
  const count = text('count');
  if (kind === 'laplace')
    return { count, spec: { type: 'laplace', scale: text('scale'), sensitivity: text('sensitivity') } };
  if (kind === 'gaussian')
    return { count, spec: { type: 'gaussian', sigma: text('sigma'), sensitivity: text('sensitivity') } };
  if (kind === 'subsampled_gaussian') {
    // DP-SGD's units: the noise is the noise multiplier times the clip norm, and the clip norm is
    // the sensitivity.
    const multiplier = parseNumber(text('noise_multiplier'));
    const clipNorm = parseNumber(text('clip_norm'));
    const sigma =
      clipNorm === 1 || Number.isNaN(multiplier * clipNorm) ? text('noise_multiplier') : String(multiplier * clipNorm);
    return {
      count,
      spec: {
        type: 'poisson_subsampled',
        rate: text('rate'),
        mechanism: { type: 'gaussian', sigma, sensitivity: text('clip_norm') },
      },
    };
  }
  return { count, spec: { type: 'guarantee', epsilon: text('epsilon'), delta: text('item_delta') } };
}

/** The ledger the inputs hold: the `ledger` input, or the one release of the earlier inputs. */
function ledgerRows(form) {
  const text = inputOf(form, 'ledger').value;
  if (text.trim() === '') return [legacyRow(form)];
  return parseLedger(text).rows ?? [legacyRow(form)];
}

/** What the ledger is, for the words that fit it: one release of a familiar kind, or a mix. */
function kindOf(rows) {
  if (rows.length > 1) return 'ledger';
  const { spec } = rows[0];
  if (spec.type === 'poisson_subsampled' && spec.mechanism?.type === 'gaussian') return 'subsampled_gaussian';
  return ['guarantee', 'laplace', 'gaussian'].includes(spec.type) ? spec.type : 'mechanism';
}

// The ledger's editor of each form (built once the catalog has arrived).
const editors = new WeakMap();

function editorOf(form, catalog) {
  if (editors.has(form)) return editors.get(form);
  const input = inputOf(form, 'ledger');
  const editor = ledgerEditor({
    host: form.querySelector('[data-ledger]'),
    idPrefix: 'composition-release',
    catalog,
    onChange: (text) => {
      if (input.value === text) return;
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    example: statisticsOffice(catalog, () => setRelation(form, catalog.schema, 'substitute')),
  });
  editors.set(form, editor);
  return editor;
}

/** Sets the relation switch (where the core takes a relation), as a person would. */
function setRelation(form, schema, value) {
  const input = inputOf(form, 'relation');
  if (!opTakes(schema, 'compose', 'relation') || input.value === value) return;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A statistics office's year: 12 monthly tables of counts with discrete Gaussian noise σ = 5, a
 * yearly median by the exponential mechanism at ε = 0.5, and 365 daily randomized-response polls
 * with p = 0.5 (two answers). Offered once the core has all three mechanisms; randomized response is
 * accounted under substitution (a respondent's answer changes, as in dp_accounting), so `after`
 * switches the relation to it.
 */
function statisticsOffice(catalog, after) {
  const has = (name) => catalog.types.some((type) => type.name === name);
  if (!['discrete_gaussian', 'exponential', 'randomized_response'].every(has)) return null;
  return {
    label: "A statistics office's year",
    rows: () => [
      { count: '12', spec: { type: 'discrete_gaussian', sigma: '5', sensitivity: '1' } },
      { count: '1', spec: { type: 'exponential', epsilon: '0.5' } },
      { count: '365', spec: { type: 'randomized_response', noise_parameter: '0.5', num_buckets: '2' } },
    ],
    after,
  };
}

/** Makes the relation switch appear only where the core takes `relation` on compose requests. */
function relationOf(form, schema) {
  const input = inputOf(form, 'relation');
  const available = opTakes(schema, 'compose', 'relation');
  input.closest('.field').hidden = !available;
  // Sent only when it is not the default, so that requests stay as they were.
  return available && input.value !== 'add_remove' ? { relation: input.value } : {};
}

/**
 * The ledger row (0-based) whose count the "most releases" question solves for, from the release
 * number typed (1-based); null, with the input marked, when the ledger has no such row.
 */
function solveIndex(form, length, errors) {
  const input = inputOf(form, 'solve_release');
  const number = readNumber(input);
  if (Number.isInteger(number) && number >= 1 && number <= length) return number - 1;
  errors.set(input, `Give the number of a release in the ledger, from 1 to ${length}.`);
  return null;
}

/** The count of the release being solved for is the answer, not an input: it is disabled meanwhile. */
function markUnknownCount(releases, index) {
  releases.forEach((release, i) => {
    const count = release.fields[`items.${i}.count`];
    if (count) count.disabled = i === index;
  });
}

/** The PLD grid step typed in the settings; blank asks the core to choose it. */
function discretizationOf(form) {
  const input = inputOf(form, 'pld_step');
  return input.value.trim() === '' ? {} : { discretization: readNumber(input) };
}

/** The ledger in words: "100 × 0.1-DP", "12 × Discrete Gaussian mechanism (σ = 5, Δ = 1); 1 × …". */
const ledgerWords = (catalog, rows) => rows.map((row) => rowWords(catalog, row)).join('; ');

function renderResult(result) {
  if (result.approx) {
    return h(
      'span',
      {},
      guaranteeElement(result.guarantee),
      ' → ',
      guaranteeElement(result.approx, { vacuous: result.vacuous, deltaIsGiven: true }),
    );
  }
  return guaranteeElement(result.guarantee, { vacuous: result.vacuous });
}

function noteOf(result) {
  if (typeof result.order === 'number') return `at Rényi order α = ${formatNumber(result.order)}`;
  return typeof result.delta_slack === 'number' ? `with δ′ = ${formatNumber(result.delta_slack, 'down')}` : '';
}

/** Closed-form profile points: at each δ target, the ε a method promises (when its δ stays within the target). */
function closedFormProfile(jobs, responses) {
  const points = [];
  responses.forEach((response, i) => {
    if (!response.ok || response.result.vacuous) return;
    const { epsilon, delta = 0 } = approxOf(response.result);
    const target = jobs[i].delta;
    if (Number.isFinite(epsilon) && epsilon > 0 && delta <= target) {
      points.push({
        series: jobs[i].method.label,
        key: jobs[i].method.id,
        x: epsilon,
        y: target,
        xRole: 'upper',
        yRole: 'given',
      });
    }
  });
  return points;
}

function pldProfile(result) {
  const points = [];
  result.epsilons.forEach((epsilon, i) => {
    for (const side of ['upper', 'lower']) {
      const delta = result[`delta_${side}`][i];
      if (delta >= kProfileFloor && delta <= 1)
        points.push({
          series: kPldSeries[side],
          key: `pld-${side}`,
          x: epsilon,
          y: delta,
          xRole: 'given',
          yRole: side,
        });
    }
  });
  return points;
}

function profileFigure(points, pldText) {
  const figure = chartFigure(points, {
    title: 'Privacy profile δ(ε) of every method',
    xLabel: 'ε',
    yLabel: 'δ',
    xName: 'total privacy loss ε',
    yName: 'total failure probability δ',
    xLog: true,
    yLog: true,
    description:
      'For each method, the delta it guarantees at each epsilon, log-log axes; the PLD lower bound is dashed.',
    longTable: true,
    file: 'dpcalc-composition-profile',
    emptyText: 'Nothing to plot yet: no method answered for these inputs.',
  });
  if (pldText)
    figure.querySelector('figcaption').after(h('p', { class: 'note', dataset: { profileStatus: '' } }, pldText));
  return figure;
}

/** ε against k: the closed forms' points, then the PLD's upper bounds once they are computed. */
function stepsFigure(points, pldText, single = true) {
  const figure = chartFigure(points, {
    title: single
      ? 'ε against the number of compositions k, for every method'
      : 'ε against the number of times k the whole ledger runs, for every method',
    xLabel: single ? 'number of compositions k' : 'times the ledger runs k',
    yLabel: 'total ε',
    yName: 'total privacy loss ε at the target δ',
    xLog: true,
    yLog: true,
    file: 'dpcalc-composition-epsilon',
    description: 'Total epsilon of k compositions for each composition method, log-log axes.',
    emptyText: 'Nothing to plot yet: no method answered for these inputs.',
  });
  if (pldText)
    figure.querySelector('figcaption').after(h('p', { class: 'note', dataset: { stepsStatus: '' } }, pldText));
  return figure;
}

/**
 * Why a closed form does not answer for this ledger (the API's `unsupported` errors), in words that
 * point to the rows that do answer.
 */
function notApplicableText(kind, methodId) {
  if (kind === 'subsampled_gaussian') {
    return 'Does not apply: no closed form composes a subsampled mechanism tightly. The PLD row below gives its bound.';
  }
  if (kind === 'gaussian') {
    return (
      'Does not apply: this method composes a pure ε per mechanism, and the Gaussian mechanism has none (its ε depends on δ). ' +
      'The zCDP and PLD rows compose it.'
    );
  }
  if (methodId === 'optimal' && kind === 'ledger') {
    return 'Does not apply: optimal composition is exact for identical releases only. The PLD row composes different ones tightly.';
  }
  if (methodId === 'rdp') {
    return 'Does not apply: a release here has no Rényi DP curve in the calculator (it composes mechanisms, not guarantees). The PLD row composes it.';
  }
  if (methodId === 'zcdp') {
    return 'Does not apply: a release here has no zCDP bound of its own (an (ε₀, δ₀) guarantee with δ₀ > 0, or subsampling). The PLD row composes it.';
  }
  if (kind === 'ledger' || kind === 'mechanism') {
    return 'Does not apply: this method needs an (ε, δ) guarantee of each release, and a release here has none in closed form. The PLD row composes it.';
  }
  return 'Does not apply to these mechanisms.';
}

// The PLD's ε is also plotted against k, at this many of the plotted counts.
const kPldPlotCounts = 8;

/** About `n` of `counts` (sorted), spread evenly, always with the first and the last. */
function spread(counts, n) {
  if (counts.length <= n) return counts;
  return [...new Set(Array.from({ length: n }, (_, i) => counts[Math.round((i * (counts.length - 1)) / (n - 1))]))];
}

/** What the ledger is, for the headline: "100 mechanisms, each 0.1-DP", or the ledger in words. */
function ledgerSubject(catalog, rows, kind) {
  if (kind !== 'guarantee') return ledgerWords(catalog, rows);
  const { count, spec } = rows[0];
  const value = (text) => {
    const number = parseNumber(text);
    return Number.isNaN(number) ? text.trim() : givenNumber(number);
  };
  const pure = parseNumber(spec.delta) === 0;
  return `${count} mechanisms, each ${pure ? `${value(spec.epsilon)}-DP` : `(${value(spec.epsilon)}, ${value(spec.delta)})-DP`}`;
}

/**
 * The headline: for pure mechanisms the pure total first (basic composition), then the smallest ε
 * at the person's target δ among the methods that apply to all records (not parallel composition)
 * and whose δ stays within the target, PLD included once it has answered. Returns [text, { cite }].
 */
/**
 * The tightest answer at the person's δ: the smallest ε among the methods that apply to all records
 * (not parallel composition) and whose δ stays within the target, PLD included once it has answered.
 * { id, label, result, guarantee } or null.
 */
function tightest(rows, pld, delta) {
  const candidates = rows
    .filter((row) => row.response.ok && !row.response.result.vacuous && row.id !== 'parallel')
    .map((row) => ({
      id: row.id,
      label: row.label,
      result: row.response.result,
      guarantee: approxOf(row.response.result),
    }))
    .filter(({ guarantee }) => guarantee.type !== 'pure' && guarantee.delta > 0 && guarantee.delta <= delta);
  if (pld) candidates.push({ id: 'pld', label: kPldLabel, result: pld, guarantee: pld.guarantee });
  const finite = candidates.filter((candidate) => Number.isFinite(candidate.guarantee.epsilon));
  return finite.length ? finite.reduce((a, b) => (b.guarantee.epsilon < a.guarantee.epsilon ? b : a)) : null;
}

/** Marks the row of the tightest method in `table` (and only it). */
function markTightest(table, best) {
  for (const row of table.querySelectorAll('tr[data-best]')) {
    delete row.dataset.best;
    row.querySelector('.best-note')?.remove();
  }
  const row = best && table.querySelector(`tr[data-row="${best.id}"]`);
  if (!row) return;
  row.dataset.best = 'true';
  row.querySelector('th').append(h('span', { class: 'best-note' }, 'tightest at this δ'));
}

function headlineOf(rows, pld, { what, delta }, { pending = false } = {}) {
  const parts = [];
  const cites = [];
  const basic = rows.find((row) => row.id === 'basic').response;
  if (basic.ok && basic.result.guarantee.type === 'pure' && !basic.result.vacuous) {
    parts.push(`pure ${boundText({ type: 'pure', epsilon: basic.result.guarantee.epsilon })}, by basic composition`);
    cites.push({ result: basic.result, guarantee: { type: 'pure', epsilon: basic.result.guarantee.epsilon } });
  }
  const best = tightest(rows, pld, delta);
  if (best) {
    parts.push(`${boundText(best.guarantee, { deltaIsGiven: true })}, by ${methodWords(best.label)}`);
    cites.push(best);
  }
  if (parts.length === 0)
    return [pending ? `${what}: the PLD is computing…` : 'No method gives a bound for these inputs.'];
  if (pending) parts.push('the PLD is computing…');
  const [first] = cites;
  const cite = citeSentence({
    subject: `${what},`,
    verb: 'together satisfy',
    guarantee: paperGuarantee(first.guarantee, { deltaIsGiven: first.guarantee.type === 'approx' }),
    method: methodWords(first.result.method),
    citation: first.result.citation,
  });
  return [`${what}: ${parts.join('; ')}.`, { cite }];
}

async function updateComposition(section) {
  const { calculator, form, isCurrent, results, plots, errors, signal, summary, explain } = section;
  const catalog = await catalogOf(calculator);
  if (!isCurrent()) return;
  const editor = editorOf(form, catalog);
  const ledger = ledgerRows(form);
  // The editor shows the ledger of the inputs (a link, the visit, the back button may set them).
  if (ledgerText(editor.rows()) !== ledgerText(ledger)) editor.show(ledger);
  const kind = kindOf(ledger);
  const relation = relationOf(form, catalog.schema);
  const fields = {
    delta: inputOf(form, 'delta'),
    kmax: inputOf(form, 'kmax'),
    step: inputOf(form, 'pld_step'),
  };
  const releases = editor.items();
  const items = releases.map((release) => release.item);
  const delta = readNumber(fields.delta);
  const discretization = discretizationOf(form);
  const fieldMap = Object.assign({ delta: fields.delta }, ...releases.map((release) => release.fields));
  // zCDP composition does not apply to items with δ₀ > 0; that is said in its row, while δ₀ itself
  // stays valid for every other method.
  const zcdpFieldMap = Object.fromEntries(
    Object.entries(fieldMap).filter(([path]) => !path.endsWith('.guarantee.delta')),
  );
  const pldFieldMap = { ...fieldMap, discretization: fields.step, 'discretization.interval': fields.step };
  const ask = (request) => ({ ...request, ...relation });
  const solving = inputOf(form, 'question').value === 'most_releases';
  const index = solving ? solveIndex(form, releases.length, errors) : null;
  markUnknownCount(releases, index);
  if (solving) {
    if (index === null) {
      results.replaceChildren();
      plots.replaceChildren();
      summary('No answer: check the marked fields.');
      return;
    }
    const target = { epsilon: readNumber(inputOf(form, 'target_epsilon')), delta };
    const releaseFields = { ...pldFieldMap };
    delete releaseFields.delta;
    const question = {
      methods: compositionMethods,
      items,
      index,
      target,
      ask,
      discretization,
      fields: {
        ...releaseFields,
        target: inputOf(form, 'target_epsilon'),
        'target.epsilon': inputOf(form, 'target_epsilon'),
        'target.delta': fields.delta,
        items: inputOf(form, 'solve_release'),
        unknown: inputOf(form, 'question'),
      },
      notApplicable: (id) => notApplicableText(kind, id),
      subject: rowWords(catalog, ledger[index]).replace(/^\S+ × /, ''),
    };
    return solveComposition(question, section);
  }

  // ε against k: k copies of a single release, or the whole ledger repeated k times.
  const single = ledger.length === 1;
  const itemsTimes = (n) =>
    single ? [{ ...items[0], count: n }] : items.map((item) => ({ ...item, count: item.count * n }));
  const counts = plotRange(fields.kmax, errors, { max: 100000, points: 24, log: true });
  const plotted = compositionMethods.filter((method) => method.id !== 'parallel');
  const plotJobs = counts.flatMap((n) =>
    plotted.map((method) => ({ n, method, request: ask(method.request(itemsTimes(n), delta)) })),
  );
  const profileJobs = kProfileDeltas.flatMap((target) =>
    plotted.map((method) => ({ delta: target, method, request: ask(method.request(items, target)) })),
  );
  // Closed forms only: they take microseconds, and aborting one would restart the fast worker.
  const [responses, plotResponses, profileResponses, shareResponses] = await Promise.all([
    askAll(
      calculator,
      compositionMethods.map((method) => ask(method.request(items, delta))),
    ),
    askAll(
      calculator,
      plotJobs.map((job) => job.request),
    ),
    askAll(
      calculator,
      profileJobs.map((job) => job.request),
    ),
    askAll(calculator, shareRequests(items, relation)),
  ]);
  if (!isCurrent()) return;

  // The numeric part can be cancelled by its button, and is whenever the section recomputes.
  const numeric = new AbortController();
  const abortNumeric = () => numeric.abort();
  signal.addEventListener('abort', abortNumeric, { once: true });
  const status = numericStatus({ id: 'composition-pld', label: 'PLD composition', onCancel: abortNumeric });
  const pldRow = {
    id: 'pld',
    label: kPldLabel,
    formula: formulas.pld,
    fields: pldFieldMap,
    render: renderPld,
    // Its small print, and "More digits": the same composition for a bracket ten times narrower.
    note: (result) =>
      h(
        'span',
        {},
        pldNote(result),
        moreDigits({
          calculator,
          request: ask({ op: 'compose', method: 'pld', delta, items }),
          bracket: { lower: result.epsilon_lower, upper: result.epsilon_upper },
          bracketOf: (tighter) => ({ lower: tighter.epsilon_lower, upper: tighter.epsilon_upper, note: tighter.note }),
          signal,
          id: 'composition-pld',
        }),
      ),
  };
  let pldRowElement = methodRow(
    { ...pldRow, status: 'running', pending: h('span', { class: 'pending' }, 'computing…') },
    errors,
  );

  const rows = compositionMethods.map((method, i) => ({
    id: method.id,
    label: method.label,
    formula: method.formula,
    response: responses[i],
    render: renderResult,
    note: noteOf,
    notApplicable: () => notApplicableText(kind, method.id),
    fields: method.id === 'zcdp' ? zcdpFieldMap : fieldMap,
  }));
  const what = ledgerSubject(catalog, ledger, kind);
  const table = methodTable({
    caption: `${ledgerWords(catalog, ledger)}; total δ target ${fields.delta.value.trim()}`,
    rows,
    errors,
  });
  table.querySelector('tbody').append(pldRowElement);
  markTightest(table, tightest(rows, null, delta));
  const shares = ledgerTable({ catalog, rows: ledger, responses: shareResponses, delta });
  results.replaceChildren(status.element, table, shares);
  const context = { what, delta };
  summary(...headlineOf(rows, null, context, { pending: true }));
  // Closed-form errors are marked now, not once the numeric work ends.
  showFieldErrors(form, errors);

  const points = [];
  plotResponses.forEach((response, i) => {
    if (!response.ok || response.result.vacuous) return;
    const y = approxOf(response.result).epsilon;
    if (Number.isFinite(y) && y > 0)
      points.push({
        series: plotJobs[i].method.label,
        key: plotJobs[i].method.id,
        x: plotJobs[i].n,
        y,
        xRole: 'given',
        yRole: 'upper',
      });
  });
  const closedProfile = closedFormProfile(profileJobs, profileResponses);
  const stepsHolder = h('div', { class: 'chart-holder' }, stepsFigure(points, 'PLD curve: computing…', single));
  const profileHolder = h('div', { class: 'chart-holder' }, profileFigure(closedProfile, 'PLD curves: computing…'));
  plots.replaceChildren(stepsHolder, profileHolder);

  const replacePldRow = (row) => {
    const next = methodRow({ ...pldRow, ...row }, errors);
    pldRowElement.replaceWith(next);
    pldRowElement = next;
  };
  // For a ledger of several releases the PLD row gives its bound; its curve against k is not redone.
  const pldCounts = single ? spread(counts, kPldPlotCounts) : [];
  const kNoPldCurve = 'PLD curve: drawn for a single release (the PLD row bounds this ledger).';
  const stages = 4;
  const stage = (first) => (fraction) => status.progress((first + fraction) / stages);
  const pldOf = (pldItems, onProgress) =>
    settleUnlessAborted(
      calculator.run(ask({ op: 'compose', method: 'pld', delta, items: pldItems, ...discretization }), {
        signal: numeric.signal,
        onProgress,
      }),
    );
  const aloneLeft = () => ledger.forEach((_, i) => setAlone(shares, i, null));
  try {
    const pldResponse = await pldOf(items, stage(0));
    if (!isCurrent()) return;
    replacePldRow({ response: pldResponse, status: 'done' });
    markTightest(table, tightest(rows, pldResponse.ok ? pldResponse.result : null, delta));
    // Asked next, before any other numeric request: it reads the PLDs this answer kept.
    if (pldResponse.ok) explain({ of: ask({ op: 'compose', method: 'pld', delta, items, ...discretization }) });
    // Each release alone at the total δ (the ledger's own PLD when it has one release).
    for (const [i, item] of items.entries()) {
      const alone = single ? pldResponse : await pldOf([item], (fraction) => stage(1)((i + fraction) / items.length));
      if (!isCurrent()) return;
      setAlone(shares, i, alone);
    }
    if (!pldResponse.ok) {
      status.finish('error', 'PLD composition: see its row.');
      summary(...headlineOf(rows, null, context));
      stepsHolder.replaceChildren(stepsFigure(points, 'PLD curve: none, see the PLD row for why.', single));
      profileHolder.replaceChildren(profileFigure(closedProfile, 'PLD curves: none, see the PLD row for why.'));
      return;
    }
    summary(...headlineOf(rows, pldResponse.result, context));
    const epsilons = profileEpsilons(
      pldResponse.result.epsilon_upper,
      closedProfile.map((point) => point.x),
    );
    const profileResponse = await settleUnlessAborted(
      calculator.run(ask({ op: 'profile', items, epsilons, ...discretization }), {
        signal: numeric.signal,
        onProgress: stage(2),
      }),
    );
    if (!isCurrent()) return;
    if (profileResponse.ok) {
      profileHolder.replaceChildren(profileFigure([...closedProfile, ...pldProfile(profileResponse.result)], ''));
    } else {
      profileHolder.replaceChildren(profileFigure(closedProfile, `PLD curves: ${profileResponse.error.message}`));
    }
    const pldPoints = [];
    for (const [i, n] of pldCounts.entries()) {
      const response = await pldOf(itemsTimes(n), (fraction) => stage(3)((i + fraction) / pldCounts.length));
      if (!isCurrent()) return;
      if (response.ok)
        pldPoints.push({
          series: kPldSeries.upper,
          key: 'pld-upper',
          x: n,
          y: response.result.epsilon_upper,
          xRole: 'given',
          yRole: 'upper',
        });
    }
    stepsHolder.replaceChildren(stepsFigure([...points, ...pldPoints], single ? '' : kNoPldCurve, single));
    if (profileResponse.ok) status.finish('done', 'PLD composition: done.');
    else status.finish('error', `PLD profile failed: ${profileResponse.error.message}`);
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (!isCurrent()) return;
    status.finish('cancelled', 'PLD composition cancelled. Change any input to compute again.');
    aloneLeft();
    if (pldRowElement.dataset.status === 'running') {
      replacePldRow({ status: 'cancelled', pending: h('span', { class: 'cancelled' }, 'cancelled') });
      summary(...headlineOf(rows, null, context));
    }
    if (stepsHolder.querySelector('[data-steps-status]'))
      stepsHolder.replaceChildren(stepsFigure(points, 'PLD curve: cancelled.', single));
    if (profileHolder.querySelector('[data-profile-status]'))
      profileHolder.replaceChildren(profileFigure(closedProfile, 'PLD curves: cancelled.'));
  } finally {
    signal.removeEventListener('abort', abortNumeric);
  }
}

export { updateComposition };
