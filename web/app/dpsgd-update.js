// DP-SGD with groups (Sommer 2021, "Group Privacy for Deep Learning with Differential Privacy";
// Schuchardt, Stoian, Kosmala, Günnemann 2024): the guarantee of DP-SGD training for a group of k
// examples owned by one person, or the noise multiplier that reaches a target ε for such a group.
// Every number comes from the core (op 'dpsgd'): the tight PLD bracket, Sommer's RDP
// over-approximation (for k = 1 the standard RDP accountant), generic group privacy, and in
// calibration mode Sommer's rule of thumb. Poisson sampling is the default: its analysis is proven;
// fixed-size batches rest on the worst-case property, which the headline itself says. Sommer's
// three figures: the worst-case pair's densities, ε vs steps for k = 1…5 (tight and RDP), ε vs k for
// several noise multipliers. All numeric work runs in the worker with progress and a Cancel button.
import { h, readNumber, showFieldErrors } from './dom.js';
import { formatNumber } from './format.js';
import { boundText, citeSentence, paperGuarantee, paperNumber } from './headline.js';
import { guaranteeElement, methodRow, methodTable, settleUnlessAborted } from './results.js';
import { chartFigure } from './chart.js';
import { numericStatus } from './numeric.js';
import { moreDigits } from './more-digits.js';
import { plotRange } from './range.js';
import { dpsgdSolvedElements, solvedHeadline, unknownOf } from './dpsgd-solve.js';

const kFormulas = {
  pld: String.raw`P=\sum_{j=0}^{k}\Pr[J=j]\,\mathcal N(j,\sigma^2)\ \text{vs.}\ Q=\mathcal N(0,\sigma^2),\ \text{composed } T \text{ times}`,
  rdp: String.raw`q_k = 1-\Pr[J=0],\ \ \sigma_k = \sigma/k:\ \text{RDP of the subsampled Gaussian}\ (q_k, \sigma_k),\ T\text{ steps}`,
  generic: String.raw`\Bigl(k\varepsilon_1,\ \delta\,\frac{e^{k\varepsilon_1}-1}{e^{\varepsilon_1}-1}\Bigr)`,
  calibrated: String.raw`\sigma^\star = \min\{\sigma : \varepsilon_{\mathrm{PLD}}(\sigma; k, T, \delta) \le \varepsilon_{\text{target}}\}`,
  rule: String.raw`\sigma_{\text{rule}} = k\,\sigma^\star_{k=1}`,
};
const kStepsCurveK = 5; // Sommer's figure 2: k = 1…5
const kStepsPoints = 5; // steps values per curve
const kSigmaFactors = [1, 2, 4]; // Sommer's figure 3: several noise multipliers

/** The request of the form, and which input each request field comes from. */
function requestOf(input) {
  const value = (name) => input(name).value;
  const number = (name) => readNumber(input(name));
  const request = {
    op: 'dpsgd',
    group_size: number('group_size'),
    delta: number('delta'),
    sampling: value('sampling'),
    relation: value('relation'),
  };
  const fields = {
    group_size: input('group_size'),
    delta: input('delta'),
    relation: input('relation'),
    sampling: input('sampling'),
  };
  if (request.sampling === 'fixed_batch') {
    Object.assign(request, { dataset_size: number('dataset_size'), batch_size: number('batch_size') });
    Object.assign(fields, { dataset_size: input('dataset_size'), batch_size: input('batch_size') });
  } else {
    request.sampling_rate = number('sampling_rate');
    fields.sampling_rate = input('sampling_rate');
  }
  if (value('duration') === 'epochs') {
    request.epochs = number('epochs');
    fields.epochs = input('epochs');
  } else {
    request.steps = number('steps');
    fields.steps = input('steps');
  }
  const unknown = unknownOf(value('mode'), { duration: value('duration'), sampling: request.sampling });
  if (value('mode') === 'calibrate' || unknown) {
    request.target = { epsilon: number('target_epsilon') };
    Object.assign(fields, { target: input('target_epsilon'), 'target.epsilon': input('target_epsilon') });
  }
  if (value('mode') !== 'calibrate') {
    request.noise_multiplier = number('noise_multiplier');
    fields.noise_multiplier = input('noise_multiplier');
  }
  if (unknown) {
    // The unknown's field is left out (the core refuses it); for the length of training, both.
    for (const name of unknown === 'steps' || unknown === 'epochs' ? ['steps', 'epochs'] : [unknown]) {
      delete request[name];
      delete fields[name];
    }
    request.unknown = unknown;
    fields.unknown = input('mode');
  }
  return { request, fields };
}

const ok = (result) => ({ ok: true, result });
const atDelta = (result) => guaranteeElement(result.guarantee, { deltaIsGiven: true });
const bracketText = (lower, upper) => `exact ε ∈ [${formatNumber(lower, 'down')}, ${formatNumber(upper, 'up')}]`;

/** The answer in large type: the tight ε (or the calibrated σ) with its bracket. */
function answerElement(result, calibrating, k) {
  const parts = [];
  if (calibrating)
    parts.push(
      h(
        'div',
        { class: 'answer-sigma', dataset: { noiseMultiplier: String(result.noise_multiplier) } },
        `noise multiplier σ = ${formatNumber(result.noise_multiplier, 'up')}`,
      ),
    );
  parts.push(h('div', { class: 'answer-bound' }, atDelta(result)));
  parts.push(
    h(
      'div',
      { class: 'bracket', dataset: { lower: String(result.epsilon_lower), upper: String(result.guarantee.epsilon) } },
      `${bracketText(result.epsilon_lower, result.guarantee.epsilon)} for a group of k = ${k}, after ${result.steps.toLocaleString('en-US')} steps`,
    ),
  );
  // A bracket wider than the accuracy asked for says so, and why (as the Composition section's PLD row).
  if (result.methods?.pld?.note)
    parts.push(h('div', { class: 'note', dataset: { bracketNote: '' } }, result.methods.pld.note));
  if (result.steps_note) parts.push(h('div', { class: 'note' }, result.steps_note));
  // The fixed-size batch assumption: said in the headline, and here in full, not as small print.
  if (result.note) parts.push(h('div', { class: 'assumption' }, result.note));
  return h('div', { class: 'big-answer', dataset: { answer: 'dpsgd' } }, parts);
}

// Which series the RDP row is: at fractional orders dpcalc follows dp_accounting 0.6.0, whose series
// adds every term's absolute value (an upper bound); older TF Privacy subtracts the negative terms.
const kRdpSeriesNote =
  'Rényi DP at fractional orders as in dp_accounting 0.6.0 (every term of its series counted with its absolute ' +
  'value: an upper bound). Older TF Privacy subtracts the negative terms and can print up to 6% less ' +
  '(σ = 1, T = 2¹⁴, k = 2: 56.26 here, 53.26 there).';

/** The RDP row's label: for one example the standard (proven) accountant, for groups an over-approximation. */
function rdpLabel(k, sampling) {
  if (k > 1) return 'RDP over-approximation (Sommer 2021; not proven for groups)';
  return sampling === 'poisson' ? 'Standard RDP accountant (proven)' : 'Standard RDP accountant (at q = B/N)';
}

function forwardRows(result, fields, { k, sampling, more }) {
  const { pld, rdp_overapprox: rdp, generic_group: generic } = result.methods;
  const delta = result.guarantee.delta;
  const rdpResponse =
    rdp.available === false
      ? { ok: false, error: { code: 'unsupported', field: '', message: rdp.note } }
      : ok({ ...rdp, guarantee: { type: 'approx', epsilon: rdp.epsilon, delta } });
  return [
    {
      id: 'pld',
      label: 'Tight (worst-case mixture, PLD)',
      formula: kFormulas.pld,
      fields,
      response: ok({ ...pld, guarantee: result.guarantee }),
      render: atDelta,
      note: (r) => h('span', {}, bracketText(r.epsilon_lower, r.epsilon), r.note ? [h('br'), r.note] : '', more ?? ''),
    },
    {
      id: 'rdp-overapprox',
      label: rdpLabel(k, sampling),
      formula: kFormulas.rdp,
      fields,
      response: rdpResponse,
      render: atDelta,
      note: (r) => `best order α = ${r.order}. ${r.note} ${kRdpSeriesNote}`,
      notApplicable: () => rdp.note,
    },
    {
      id: 'generic',
      label: 'Generic group privacy of k = 1',
      formula: kFormulas.generic,
      fields,
      response: ok(generic),
      render: (r) => guaranteeElement(r, { vacuous: r.vacuous }),
      note: (r) =>
        `from the tight k = 1 guarantee ε ≤ ${formatNumber(r.per_example.epsilon)} at δ = ${formatNumber(r.per_example.delta, 'down')}; its δ grows with k`,
    },
  ];
}

function calibrationRows(result, fields) {
  const rule = result.rule_of_thumb;
  const sigmaNote = (sigma) => `noise multiplier σ = ${formatNumber(sigma, 'up')}`;
  const ruleResponse =
    rule.available === false
      ? { ok: false, error: { code: 'unsupported', field: '', message: rule.note } }
      : ok({
          guarantee: { type: 'approx', epsilon: rule.epsilon, delta: result.guarantee.delta },
          method: 'Rule of thumb for groups',
          citation: 'Sommer 2021',
          citation_key: 'sommer2021group',
        });
  return [
    {
      id: 'calibrated',
      label: 'Calibrated σ (tight upper bound)',
      formula: kFormulas.calibrated,
      fields,
      response: ok({ ...result, method: result.method, citation: result.citation }),
      render: atDelta,
      note: (r) => `${sigmaNote(r.noise_multiplier)}; ${bracketText(r.epsilon_lower, r.guarantee.epsilon)}`,
    },
    {
      id: 'rule-of-thumb',
      label: 'Rule of thumb: k × the σ for k = 1',
      formula: kFormulas.rule,
      fields,
      response: ruleResponse,
      render: atDelta,
      notApplicable: () => rule.note,
      note: () =>
        `${sigmaNote(rule.noise_multiplier)} (${rule.noise_multiplier > result.noise_multiplier ? 'more' : 'less'} noise than needed): ${rule.note}`,
    },
  ];
}

/** Chart points of the one-step pair, from the core's densities (op 'dpsgd_pair'). */
function densityPoints(pair) {
  return pair.x.flatMap((x, i) => [
    { series: 'P (group in the data)', key: 'dpsgd-p', x, y: pair.p[i], xRole: 'given', yRole: 'given' },
    { series: 'Q (group removed)', key: 'dpsgd-q', x, y: pair.q[i], xRole: 'given', yRole: 'given' },
  ]);
}

/** The pair's request: the sampling, group and noise of `request` (no accounting, so it answers even where that is refused). */
function pairRequest(request, sigma) {
  const pair = { op: 'dpsgd_pair', noise_multiplier: sigma };
  for (const name of ['sampling', 'sampling_rate', 'dataset_size', 'batch_size', 'group_size', 'relation'])
    if (name in request) pair[name] = request[name];
  return pair;
}

/** The pair figure, or nothing when the pair itself cannot be formed (its fields are marked elsewhere). */
async function pairFigure(calculator, request, sigma) {
  const response = await calculator.run(pairRequest(request, sigma));
  if (!response.ok) return [];
  const k = request.group_size;
  return [
    chartFigure(densityPoints(response.result), {
      title: `The worst-case pair of one step (k = ${k}, σ = ${formatNumber(sigma)})`,
      xLabel: 'noisy gradient sum (units of the clip norm)',
      yLabel: 'density',
      yName: 'probability density',
      description:
        'Densities of the one-step pair: the mixture over how many of the group are in the batch against the Gaussian without them.',
      file: 'dpcalc-dpsgd-pair',
    }),
  ];
}

/** Up to `count` log-spaced step counts from 1 to `steps`, always including both. */
function stepsValues(steps, count) {
  const values = new Set([1, steps]);
  for (let i = 1; i < count - 1; i += 1) values.add(Math.max(1, Math.round(steps ** (i / (count - 1)))));
  return [...values].sort((a, b) => a - b);
}

const kFixedBatchAssumption =
  'assuming the worst-case property for fixed-size batches (not proven; Poisson sampling is)';

/**
 * The headline: the group's tight ε at the person's δ (with the calibrated noise multiplier when
 * that was the question); with fixed-size batches it says in the same sentence that this analysis
 * assumes the worst-case property. Returns [text, { cite }].
 */
function headlineOf(result, { k, calibrating, sampling }) {
  const group = `a group of ${k} example${k === 1 ? '' : 's'}`;
  const bound = boundText(result.guarantee, { deltaIsGiven: true });
  const noise = calibrating ? `Noise multiplier σ = ${formatNumber(result.noise_multiplier)} gives ` : '';
  const how = sampling === 'poisson' ? ' (Poisson sampling, tight accounting)' : `, ${kFixedBatchAssumption}`;
  const steps = result.steps.toLocaleString('en-US');
  const text = calibrating
    ? `${noise}${group} ${bound} after ${steps} steps${how}.`
    : `${group[0].toUpperCase()}${group.slice(1)}: ${bound} after ${steps} steps${how}.`;
  const sigma = paperNumber(result.noise_multiplier, calibrating ? 'up' : 'nearest');
  const cite = citeSentence({
    subject: `Training with DP-SGD (noise multiplier ${sigma}, ${steps} steps, ${
      sampling === 'poisson' ? 'Poisson sampling' : 'fixed-size batches'
    })`,
    guarantee: paperGuarantee(result.guarantee, { deltaIsGiven: true }),
    scope: `for groups of ${k} example${k === 1 ? '' : 's'}`,
    method: 'the tight accounting of the worst-case pair',
    citation: result.citation,
    assumption: sampling === 'poisson' ? '' : 'assuming the worst-case property for fixed-size batches (Sommer 2021)',
  });
  return [text, { cite }];
}

async function updateDpsgd({ calculator, input, form, isCurrent, results, plots, errors, signal, summary, explain }) {
  const { request, fields } = requestOf(input);
  if (request.unknown)
    return solveDpsgd({ calculator, request, fields, results, plots, errors, form, signal, summary, isCurrent });
  const calibrating = 'target' in request;
  const groups = plotRange(input('kmax'), errors, { max: 64, points: 8, log: false });
  const numeric = new AbortController();
  const abortNumeric = () => numeric.abort();
  signal.addEventListener('abort', abortNumeric, { once: true });
  const status = numericStatus({
    id: 'dpsgd-numeric',
    label: calibrating ? 'Calibrating σ' : 'Tight accounting',
    onCancel: abortNumeric,
  });
  const pending = methodRow(
    {
      id: 'pld',
      label: 'Tight (worst-case mixture, PLD)',
      formula: kFormulas.pld,
      status: 'running',
      pending: h('span', { class: 'pending' }, 'computing…'),
    },
    errors,
  );
  results.replaceChildren(status.element, methodTable({ caption: 'Methods', rows: [], errors }));
  results.querySelector('tbody').append(pending);
  plots.replaceChildren();
  showFieldErrors(form, errors);
  const run = (r, onProgress) => settleUnlessAborted(calculator.run(r, { signal: numeric.signal, onProgress }));
  try {
    const response = await run(request, (fraction) => status.progress(0.4 * fraction));
    if (!isCurrent()) return;
    if (!response.ok) {
      const rows = [
        {
          id: 'pld',
          label: 'Tight (worst-case mixture, PLD)',
          formula: kFormulas.pld,
          fields,
          response,
          render: atDelta,
        },
      ];
      results.replaceChildren(methodTable({ caption: 'Methods', rows, errors }));
      status.finish('error', 'No answer: see the marked fields.');
      summary('No answer: check the marked fields.');
      showFieldErrors(form, errors);
      // The pair needs no accounting: it is drawn even when the accounting is refused.
      if (!calibrating) {
        const figure = await pairFigure(calculator, request, request.noise_multiplier);
        if (isCurrent()) plots.replaceChildren(...figure);
      }
      return;
    }
    const result = response.result;
    const k = request.group_size;
    const rows = calibrating
      ? calibrationRows(result, fields)
      : forwardRows(result, fields, {
          k,
          sampling: request.sampling,
          // "More digits": the same training for a bracket ten times narrower.
          more: moreDigits({
            calculator,
            request,
            bracket: { lower: result.epsilon_lower, upper: result.guarantee.epsilon },
            bracketOf: (tighter) => ({
              lower: tighter.epsilon_lower,
              upper: tighter.guarantee.epsilon,
              note: tighter.methods.pld.note,
            }),
            signal,
            id: 'dpsgd-pld',
          }),
        });
    const caption = `DP-SGD, a group of k = ${k} examples, ${result.steps.toLocaleString('en-US')} steps`;
    results.replaceChildren(
      answerElement(result, calibrating, k),
      status.element,
      methodTable({ caption, rows, errors }),
    );
    summary(...headlineOf(result, { k, calibrating, sampling: request.sampling }));
    const sigma = calibrating ? result.noise_multiplier : request.noise_multiplier;
    const figure = await pairFigure(calculator, request, sigma);
    if (!isCurrent()) return;
    plots.replaceChildren(...figure);
    const base = { ...request, noise_multiplier: sigma };
    delete base.target;
    delete base.epochs;
    base.steps = result.steps;
    explain({ of: base, one: k > 1 ? { ...base, group_size: 1 } : undefined, groupSize: k });
    await figures({ base, groups, run, status, plots, isCurrent });
    if (isCurrent()) status.finish('done', 'Done.');
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (!isCurrent()) return;
    status.finish('cancelled', 'Cancelled. Change any input to compute again.');
  } finally {
    signal.removeEventListener('abort', abortNumeric);
  }
}

/** Sommer's figures 2 and 3: ε vs steps for k = 1…5, and ε vs k for several σ. */
async function figures({ base, groups, run, status, plots, isCurrent }) {
  const stepsJobs = [];
  for (let k = 1; k <= Math.min(kStepsCurveK, groups.at(-1) ?? kStepsCurveK); k += 1) {
    for (const steps of stepsValues(base.steps, kStepsPoints))
      stepsJobs.push({ k, steps, request: { ...base, group_size: k, steps } });
  }
  const sigmaJobs = kSigmaFactors.flatMap((factor) =>
    groups.map((k) => ({
      k,
      factor,
      request: { ...base, group_size: k, noise_multiplier: base.noise_multiplier * factor },
    })),
  );
  const jobs = [...stepsJobs, ...sigmaJobs];
  const answers = [];
  for (const [i, job] of jobs.entries()) {
    answers.push(await run(job.request, (fraction) => status.progress(0.4 + (0.6 * (i + fraction)) / jobs.length)));
    if (!isCurrent()) return;
  }
  const stepsPoints = [];
  const kPoints = [];
  answers.forEach((response, i) => {
    if (!response.ok) return;
    const job = jobs[i];
    const { guarantee, methods } = response.result;
    if (i < stepsJobs.length) {
      stepsPoints.push({
        series: `k = ${job.k}, tight`,
        key: `dpsgd-tight-${job.k}`,
        x: job.steps,
        y: guarantee.epsilon,
        xRole: 'given',
        yRole: 'upper',
      });
      const rdp = methods.rdp_overapprox;
      if (Number.isFinite(rdp.epsilon))
        stepsPoints.push({
          series: `k = ${job.k}, RDP`,
          key: `dpsgd-rdp-${job.k}`,
          x: job.steps,
          y: rdp.epsilon,
          xRole: 'given',
          yRole: 'upper',
        });
    } else {
      kPoints.push({
        series: `σ = ${formatNumber(job.request.noise_multiplier)}`,
        key: `dpsgd-sigma-${job.factor}`,
        x: job.k,
        y: guarantee.epsilon,
        xRole: 'given',
        yRole: 'upper',
      });
    }
  });
  plots.append(
    chartFigure(stepsPoints, {
      title: 'ε vs. steps: tight against the RDP over-approximation',
      xLabel: 'steps T',
      yLabel: 'ε',
      xName: 'training steps T',
      yName: 'privacy loss ε of the group at the target δ',
      xLog: true,
      yLog: true,
      description: 'Epsilon at the target delta against the number of steps, for groups of 1 to 5 examples.',
      longTable: true,
      file: 'dpcalc-dpsgd-steps',
    }),
    chartFigure(kPoints, {
      title: `ε vs. group size k after ${base.steps.toLocaleString('en-US')} steps (tight)`,
      xLabel: 'group size k',
      yLabel: 'ε',
      yName: 'privacy loss ε of the group at the target δ',
      yLog: true,
      description: 'Tight epsilon against the group size, for several noise multipliers.',
      file: 'dpcalc-dpsgd-k',
    }),
  );
}

/** A "largest value for a target ε" question: one numeric request, its answer and one step beyond. */
async function solveDpsgd({ calculator, request, fields, results, plots, errors, form, signal, summary, isCurrent }) {
  const numeric = new AbortController();
  const abortNumeric = () => numeric.abort();
  signal.addEventListener('abort', abortNumeric, { once: true });
  const status = numericStatus({ id: 'dpsgd-numeric', label: 'Searching', onCancel: abortNumeric });
  results.replaceChildren(status.element);
  plots.replaceChildren();
  showFieldErrors(form, errors);
  try {
    const response = await settleUnlessAborted(
      calculator.run(request, { signal: numeric.signal, onProgress: (fraction) => status.progress(fraction) }),
    );
    if (!isCurrent()) return;
    if (!response.ok) {
      const row = {
        id: 'solved',
        label: 'Largest value meeting the target',
        formula: kFormulas.pld,
        fields,
        response,
        render: atDelta,
      };
      results.replaceChildren(methodTable({ caption: 'Methods', rows: [row], errors }), status.element);
      status.finish('error', 'No answer: see the marked fields.');
      summary('No answer: check the marked fields.');
      showFieldErrors(form, errors);
      return;
    }
    results.replaceChildren(...dpsgdSolvedElements(response.result, fields, errors), status.element);
    summary(solvedHeadline(response.result, { k: request.group_size, sampling: request.sampling }));
    status.finish('done', 'Done.');
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (isCurrent()) status.finish('cancelled', 'Cancelled. Change any input to compute again.');
  } finally {
    signal.removeEventListener('abort', abortNumeric);
  }
}

export { updateDpsgd };
