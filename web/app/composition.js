// Composition: k mechanisms, each an (ε₀, δ₀)-DP guarantee or a known noise mechanism (Laplace,
// Gaussian, Poisson-subsampled Gaussian), composed by every closed-form method and by the numeric
// PLD method in one table; ε against the number of compositions; and the privacy profile δ(ε) of
// every method side by side. Closed forms answer at once; the PLD runs in the numeric worker with
// a progress bar and can be cancelled, by its button or by any new input.
import { h, readNumber, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { askAll, guaranteeElement, methodRow, methodTable, settleUnlessAborted } from './results.js';
import { chartFigure } from './chart.js';
import { formatNumber, parseNumber } from './format.js';
import { boundText, citeSentence, givenNumber, methodWords, paperGuarantee } from './headline.js';
import { plotRange } from './range.js';
import { numericStatus, pldNote, profileEpsilons, renderPld } from './numeric.js';

// Each method: its request for `count` copies of `item` at total δ target `delta`, and the ε it
// reaches (for the plot).
export const compositionMethods = [
  {
    id: 'basic',
    label: 'Basic composition',
    formula: formulas.basic,
    request: (item, count) => ({ op: 'compose', method: 'basic', items: [{ ...item, count }] }),
  },
  {
    id: 'parallel',
    label: 'Parallel composition (disjoint records only)',
    formula: formulas.parallel,
    request: (item, count) => ({ op: 'compose', method: 'parallel', items: [{ ...item, count }] }),
  },
  {
    id: 'advanced-drv',
    label: 'Advanced composition (Dwork–Rothblum–Vadhan)',
    formula: formulas.advancedDrv,
    request: (item, count, delta) => ({
      op: 'compose',
      method: 'advanced',
      variant: 'dwork_rothblum_vadhan',
      delta,
      items: [{ ...item, count }],
    }),
  },
  {
    id: 'advanced-kov',
    label: 'Advanced composition (Kairouz–Oh–Viswanath)',
    formula: formulas.advancedKov,
    request: (item, count, delta) => ({
      op: 'compose',
      method: 'advanced',
      variant: 'kairouz',
      delta,
      items: [{ ...item, count }],
    }),
  },
  {
    id: 'optimal',
    label: 'Optimal composition (exact)',
    formula: formulas.optimal,
    request: (item, count, delta) => ({ op: 'compose', method: 'optimal', delta, items: [{ ...item, count }] }),
  },
  {
    id: 'zcdp',
    label: 'zCDP composition',
    formula: formulas.zcdp,
    request: (item, count, delta) => ({ op: 'compose', method: 'zcdp', delta, items: [{ ...item, count }] }),
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

/** The item the form describes and, for each request field of it, the input to mark on error. */
function itemFromForm(form) {
  const kind = inputOf(form, 'kind').value;
  const number = (name) => readNumber(inputOf(form, name));
  const field = (name) => inputOf(form, name);
  if (kind === 'guarantee') {
    return {
      kind,
      item: itemOf(number('epsilon'), number('item_delta')),
      fields: { 'items.0.guarantee.epsilon': field('epsilon'), 'items.0.guarantee.delta': field('item_delta') },
    };
  }
  if (kind === 'laplace') {
    return {
      kind,
      item: { mechanism: { type: 'laplace', scale: number('scale'), sensitivity: number('sensitivity') } },
      fields: { 'items.0.mechanism.scale': field('scale'), 'items.0.mechanism.sensitivity': field('sensitivity') },
    };
  }
  if (kind === 'gaussian') {
    return {
      kind,
      item: { mechanism: { type: 'gaussian', sigma: number('sigma'), sensitivity: number('sensitivity') } },
      fields: { 'items.0.mechanism.sigma': field('sigma'), 'items.0.mechanism.sensitivity': field('sensitivity') },
    };
  }
  // DP-SGD's units: the noise is the noise multiplier times the clip norm, and the clip norm is the
  // sensitivity. (An invalid clip norm is reported on its own field, not folded into σ.)
  const noiseMultiplier = number('noise_multiplier');
  const clipNorm = number('clip_norm');
  const sigma = clipNorm > 0 && Number.isFinite(clipNorm) ? noiseMultiplier * clipNorm : noiseMultiplier;
  return {
    kind,
    item: {
      mechanism: {
        type: 'poisson_subsampled',
        rate: number('rate'),
        mechanism: { type: 'gaussian', sigma, sensitivity: clipNorm },
      },
    },
    fields: {
      'items.0.mechanism.rate': field('rate'),
      'items.0.mechanism.mechanism.sigma': field('noise_multiplier'),
      'items.0.mechanism.mechanism.sensitivity': field('clip_norm'),
    },
  };
}

/** The PLD grid step typed in the settings; blank asks the core to choose it. */
function discretizationOf(form) {
  const input = inputOf(form, 'pld_step');
  return input.value.trim() === '' ? {} : { discretization: readNumber(input) };
}

function describeItem(kind, form) {
  const text = (name) => inputOf(form, name).value.trim();
  const descriptions = {
    guarantee: 'mechanisms, each (ε₀, δ₀)-DP',
    laplace: `Laplace mechanisms (b = ${text('scale')}, Δ = ${text('sensitivity')})`,
    gaussian: `Gaussian mechanisms (σ = ${text('sigma')}, Δ = ${text('sensitivity')})`,
    subsampled_gaussian: `DP-SGD steps (Poisson-subsampled Gaussian: noise multiplier ${text('noise_multiplier')}, clip norm ${text('clip_norm')}, q = ${text('rate')})`,
  };
  return descriptions[kind];
}

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
function stepsFigure(points, pldText) {
  const figure = chartFigure(points, {
    title: 'ε against the number of compositions k, for every method',
    xLabel: 'number of compositions k',
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
 * Why a closed form does not answer for this kind of mechanism (the API's `unsupported` errors), in
 * words that point to the rows that do answer.
 */
function notApplicableText(kind) {
  if (kind === 'subsampled_gaussian') {
    return 'Does not apply: no closed form composes a subsampled mechanism tightly. The PLD row below gives its bound.';
  }
  if (kind === 'gaussian') {
    return (
      'Does not apply: this method composes a pure ε per mechanism, and the Gaussian mechanism has none (its ε depends on δ). ' +
      'The zCDP and PLD rows compose it.'
    );
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

/** What one mechanism is, for the headline: "each 0.1-DP", "Gaussian mechanisms (σ = 1, Δ = 1)". */
function itemWords(kind, form) {
  const value = (name) => {
    const text = inputOf(form, name).value.trim();
    const number = parseNumber(text);
    return Number.isNaN(number) ? text : givenNumber(number);
  };
  if (kind === 'guarantee') {
    const pure = parseNumber(inputOf(form, 'item_delta').value) === 0;
    return `mechanisms, each ${pure ? `${value('epsilon')}-DP` : `(${value('epsilon')}, ${value('item_delta')})-DP`}`;
  }
  if (kind === 'laplace') return `Laplace mechanisms (b = ${value('scale')}, Δ = ${value('sensitivity')})`;
  if (kind === 'gaussian') return `Gaussian mechanisms (σ = ${value('sigma')}, Δ = ${value('sensitivity')})`;
  return `DP-SGD steps (noise multiplier ${value('noise_multiplier')}, q = ${value('rate')})`;
}

/** The mechanisms are pure ε-DP (so the pure answer of basic composition comes first). */
function pureItems(kind, form) {
  return kind === 'laplace' || (kind === 'guarantee' && parseNumber(inputOf(form, 'item_delta').value) === 0);
}

/**
 * The headline: for pure mechanisms the pure total first (basic composition), then the smallest ε
 * at the person's target δ among the methods that apply to all records (not parallel composition)
 * and whose δ stays within the target, PLD included once it has answered. Returns [text, { cite }].
 */
function headlineOf(rows, pld, { kind, form, delta }, { pending = false } = {}) {
  const count = inputOf(form, 'count').value.trim();
  const what = `${count} ${itemWords(kind, form)}`;
  const parts = [];
  const cites = [];
  const basic = rows.find((row) => row.id === 'basic').response;
  if (pureItems(kind, form) && basic.ok && !basic.result.vacuous) {
    parts.push(`pure ${boundText({ type: 'pure', epsilon: basic.result.guarantee.epsilon })}, by basic composition`);
    cites.push({ result: basic.result, guarantee: { type: 'pure', epsilon: basic.result.guarantee.epsilon } });
  }
  const candidates = rows
    .filter((row) => row.response.ok && !row.response.result.vacuous && row.id !== 'parallel')
    .map((row) => ({ label: row.label, result: row.response.result, guarantee: approxOf(row.response.result) }))
    .filter(({ guarantee }) => guarantee.type !== 'pure' && guarantee.delta > 0 && guarantee.delta <= delta);
  if (pld) candidates.push({ label: kPldLabel, result: pld, guarantee: pld.guarantee });
  const finite = candidates.filter((candidate) => Number.isFinite(candidate.guarantee.epsilon));
  if (finite.length > 0) {
    const best = finite.reduce((a, b) => (b.guarantee.epsilon < a.guarantee.epsilon ? b : a));
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

async function updateComposition({ calculator, form, isCurrent, results, plots, errors, signal, summary }) {
  const fields = {
    count: inputOf(form, 'count'),
    delta: inputOf(form, 'delta'),
    kmax: inputOf(form, 'kmax'),
    step: inputOf(form, 'pld_step'),
  };
  const { kind, item, fields: itemFields } = itemFromForm(form);
  const count = readNumber(fields.count);
  const delta = readNumber(fields.delta);
  const discretization = discretizationOf(form);
  const fieldMap = { ...itemFields, 'items.0.count': fields.count, delta: fields.delta };
  // zCDP composition does not apply to items with δ₀ > 0; that is said in its row, while δ₀ itself
  // stays valid for every other method.
  const zcdpFieldMap = { ...fieldMap };
  delete zcdpFieldMap['items.0.guarantee.delta'];
  const pldFieldMap = { ...fieldMap, discretization: fields.step, 'discretization.interval': fields.step };

  const counts = plotRange(fields.kmax, errors, { max: 100000, points: 24, log: true });
  const plotted = compositionMethods.filter((method) => method.id !== 'parallel');
  const plotJobs = counts.flatMap((n) =>
    plotted.map((method) => ({ n, method, request: method.request(item, n, delta) })),
  );
  const profileJobs = kProfileDeltas.flatMap((target) =>
    plotted.map((method) => ({ delta: target, method, request: method.request(item, count, target) })),
  );
  // Closed forms only: they take microseconds, and aborting one would restart the fast worker.
  const [responses, plotResponses, profileResponses] = await Promise.all([
    askAll(
      calculator,
      compositionMethods.map((method) => method.request(item, count, delta)),
    ),
    askAll(
      calculator,
      plotJobs.map((job) => job.request),
    ),
    askAll(
      calculator,
      profileJobs.map((job) => job.request),
    ),
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
    note: pldNote,
  };
  let pldRowElement = methodRow(
    { ...pldRow, status: 'running', pending: h('span', { class: 'pending' }, 'computing…') },
    errors,
  );

  const notApplicable = () => notApplicableText(kind);
  const rows = compositionMethods.map((method, i) => ({
    id: method.id,
    label: method.label,
    formula: method.formula,
    response: responses[i],
    render: renderResult,
    note: noteOf,
    notApplicable,
    fields: method.id === 'zcdp' ? zcdpFieldMap : fieldMap,
  }));
  const table = methodTable({
    caption: `k = ${fields.count.value.trim()} ${describeItem(kind, form)}; total δ target ${fields.delta.value.trim()}`,
    rows,
    errors,
  });
  table.querySelector('tbody').append(pldRowElement);
  results.replaceChildren(status.element, table);
  const context = { kind, form, delta };
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
  const stepsHolder = h('div', { class: 'chart-holder' }, stepsFigure(points, 'PLD curve: computing…'));
  const profileHolder = h('div', { class: 'chart-holder' }, profileFigure(closedProfile, 'PLD curves: computing…'));
  plots.replaceChildren(stepsHolder, profileHolder);

  const replacePldRow = (row) => {
    const next = methodRow({ ...pldRow, ...row }, errors);
    pldRowElement.replaceWith(next);
    pldRowElement = next;
  };
  const items = [{ ...item, count }];
  const pldCounts = spread(counts, kPldPlotCounts);
  const stage = (first, stages) => (fraction) => status.progress((first + fraction) / stages);
  try {
    const pldResponse = await settleUnlessAborted(
      calculator.run(
        { op: 'compose', method: 'pld', delta, items, ...discretization },
        { signal: numeric.signal, onProgress: stage(0, 3) },
      ),
    );
    if (!isCurrent()) return;
    replacePldRow({ response: pldResponse, status: 'done' });
    if (!pldResponse.ok) {
      status.finish('error', 'PLD composition: see its row.');
      summary(...headlineOf(rows, null, context));
      stepsHolder.replaceChildren(stepsFigure(points, 'PLD curve: none, see the PLD row for why.'));
      profileHolder.replaceChildren(profileFigure(closedProfile, 'PLD curves: none, see the PLD row for why.'));
      return;
    }
    summary(...headlineOf(rows, pldResponse.result, context));
    const epsilons = profileEpsilons(
      pldResponse.result.epsilon_upper,
      closedProfile.map((point) => point.x),
    );
    const profileResponse = await settleUnlessAborted(
      calculator.run(
        { op: 'profile', items, epsilons, ...discretization },
        { signal: numeric.signal, onProgress: stage(1, 3) },
      ),
    );
    if (!isCurrent()) return;
    if (profileResponse.ok) {
      profileHolder.replaceChildren(profileFigure([...closedProfile, ...pldProfile(profileResponse.result)], ''));
    } else {
      profileHolder.replaceChildren(profileFigure(closedProfile, `PLD curves: ${profileResponse.error.message}`));
    }
    const pldPoints = [];
    for (const [i, n] of pldCounts.entries()) {
      const response = await settleUnlessAborted(
        calculator.run(
          { op: 'compose', method: 'pld', delta, items: [{ ...item, count: n }], ...discretization },
          { signal: numeric.signal, onProgress: (fraction) => stage(2, 3)((i + fraction) / pldCounts.length) },
        ),
      );
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
    stepsHolder.replaceChildren(stepsFigure([...points, ...pldPoints], ''));
    if (profileResponse.ok) status.finish('done', 'PLD composition: done.');
    else status.finish('error', `PLD profile failed: ${profileResponse.error.message}`);
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (!isCurrent()) return;
    status.finish('cancelled', 'PLD composition cancelled. Change any input to compute again.');
    if (pldRowElement.dataset.status === 'running') {
      replacePldRow({ status: 'cancelled', pending: h('span', { class: 'cancelled' }, 'cancelled') });
      summary(...headlineOf(rows, null, context));
    }
    if (stepsHolder.querySelector('[data-steps-status]'))
      stepsHolder.replaceChildren(stepsFigure(points, 'PLD curve: cancelled.'));
    if (profileHolder.querySelector('[data-profile-status]'))
      profileHolder.replaceChildren(profileFigure(closedProfile, 'PLD curves: cancelled.'));
  } finally {
    signal.removeEventListener('abort', abortNumeric);
  }
}

const gaussianKinds = ['gaussian'];
const dpSgdKinds = ['subsampled_gaussian'];

/**
 * Version-1 links took the subsampled Gaussian's σ as the absolute noise with sensitivity Δ; the
 * same noise is the noise multiplier σ/Δ at clip norm Δ.
 */
function fromLegacy(state) {
  if (state.kind !== 'subsampled_gaussian') return { state };
  const sigma = state.sigma ?? '1';
  const sensitivity = state.sensitivity ?? '1';
  if (Number(sensitivity) === 1) return { state: { ...state, noise_multiplier: sigma, clip_norm: sensitivity } };
  return {
    state: { ...state, noise_multiplier: String(Number(sigma) / Number(sensitivity)), clip_norm: sensitivity },
    note:
      `This link is from an earlier version, where σ = ${sigma} was the absolute noise at sensitivity ${sensitivity}; ` +
      'it is shown as the same noise in DP-SGD units: noise multiplier σ/Δ at clip norm Δ.',
  };
}

export default {
  name: 'composition',
  title: 'Composition',
  question: [
    'You run ',
    h('em', {}, 'k'),
    ' mechanisms on the same data, each with an (ε₀, δ₀)-DP guarantee or each a known noise ' +
      'mechanism (Laplace, Gaussian, or one DP-SGD step: a Poisson-subsampled Gaussian). What is the total guarantee? Every method ' +
      'below answers where it can; the smallest ε is the one to use (parallel composition only applies when the mechanisms touch ' +
      'disjoint records). The numeric method composes privacy loss distributions and brackets the exact answer from both sides.',
  ],
  form: [
    {
      legend: 'Each mechanism',
      fields: [
        {
          name: 'kind',
          label: 'Kind of mechanism',
          type: 'choice',
          value: 'guarantee',
          wide: true,
          options: [
            ['guarantee', '(ε₀, δ₀)-DP guarantee'],
            ['laplace', 'Laplace mechanism (b, Δ)'],
            ['gaussian', 'Gaussian mechanism (σ, Δ)'],
            ['subsampled_gaussian', 'DP-SGD step (sampled Gaussian)'],
          ],
        },
        {
          name: 'epsilon',
          label: 'Privacy loss per mechanism',
          symbol: 'ε₀',
          type: 'number',
          value: '0.1',
          shownWhen: { kind: ['guarantee'] },
        },
        {
          name: 'item_delta',
          label: 'Failure probability per mechanism',
          symbol: 'δ₀',
          type: 'number',
          value: '0',
          shownWhen: { kind: ['guarantee'] },
        },
        {
          name: 'scale',
          label: 'Laplace noise scale',
          symbol: 'b',
          type: 'number',
          value: '10',
          shownWhen: { kind: ['laplace'] },
        },
        {
          name: 'sigma',
          label: 'Gaussian noise std. dev.',
          symbol: 'σ',
          type: 'number',
          value: '1',
          hint: 'in the units of the query',
          shownWhen: { kind: gaussianKinds },
        },
        {
          name: 'noise_multiplier',
          label: 'Noise multiplier',
          type: 'number',
          value: '1',
          shownWhen: { kind: dpSgdKinds },
          hint: 'noise std. dev. σ divided by the clip norm',
        },
        {
          name: 'clip_norm',
          label: 'Clip norm',
          symbol: 'C',
          type: 'number',
          value: '1',
          shownWhen: { kind: dpSgdKinds },
          hint: 'per-example gradient clip: the sensitivity Δ',
        },
        {
          name: 'rate',
          label: 'Sampling rate',
          symbol: 'q',
          type: 'number',
          value: '0.01',
          shownWhen: { kind: dpSgdKinds },
          hint: 'batch size ÷ dataset size',
        },
        {
          name: 'sensitivity',
          label: 'Sensitivity',
          symbol: 'Δ',
          type: 'number',
          value: '1',
          shownWhen: { kind: ['laplace', ...gaussianKinds] },
          hint: 'how much one record can change the query',
        },
        { name: 'count', label: 'Number of mechanisms (steps)', symbol: 'k', type: 'count', value: '100' },
      ],
    },
    {
      legend: 'Total',
      fields: [
        { name: 'delta', label: 'Target total', symbol: 'δ', type: 'number', value: '1e-5' },
        { name: 'kmax', label: 'Plot up to k =', type: 'count', value: '1000' },
      ],
    },
    {
      legend: 'Numeric method (PLD)',
      fields: [
        { name: 'pld_step', label: 'Grid step (blank: automatic)', type: 'number', value: '' },
        {
          preset: 'DP-SGD: noise multiplier 1, q = 0.01, 10⁴ steps',
          values: {
            kind: 'subsampled_gaussian',
            noise_multiplier: '1',
            clip_norm: '1',
            rate: '0.01',
            count: '10000',
            delta: '1e-5',
            kmax: '10000',
          },
        },
      ],
    },
  ],
  fromLegacy,
  update: updateComposition,
};
