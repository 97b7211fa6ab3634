// DP-SGD as it is trained, for one example or a group (Sommer 2021, "Group Privacy for Deep Learning
// with Differential Privacy"; Schuchardt, Stoian, Kosmala, Günnemann 2024): the guarantee of DP-SGD
// training under the batch sampler of the person's training loop, for a group of k examples owned by
// one person, or the noise multiplier that reaches a target ε for such a group. Every number comes
// from the core (op 'dpsgd'): the sampler's upper bound and a lower bound an attack reaches, with its
// status (the headline says it: the headline never shows the Poisson ε for a loop that does not
// sample that way); for Poisson sampling and fixed batches also Sommer's RDP over-approximation (for
// k = 1 the standard RDP accountant), generic group privacy, and in calibration mode Sommer's rule
// of thumb. Under the answer, the same training under every sampler side by side (op
// 'dpsgd_samplers', dpsgd-samplers.js). Sommer's three figures for the samplers whose step is one
// Gaussian mixture: the worst-case pair's densities, ε vs steps for k = 1…5 (tight and RDP), ε vs k
// for several noise multipliers. The requests are dpsgd-requests.js (shared with <dp-calculator>);
// all numeric work runs in the worker with progress and a Cancel button (runNumeric).
import { h, showFieldErrors } from './dom.js';
import { formatNumber, tidyNumbers } from './format.js';
import { boundText, citeSentence, givenNumber, methodWords, paperGuarantee, paperNumber, proof } from './headline.js';
import { guaranteeElement, inputsOf, methodRow, methodTable } from './results.js';
import { answerItem } from './ask.js';
import { askExplained } from './explained.js';
import { chartFigure } from './chart.js';
import { runNumeric } from './numeric.js';
import { moreDigits } from './more-digits.js';
import { plotRange } from './range.js';
import { dpsgdSolvedElements, solvedHeadline } from './dpsgd-solve.js';
import { chosenSentence, samplersTable, statusWords } from './dpsgd-samplers.js';
import {
  answeredTraining,
  figureItems,
  hasMixture,
  kGroupsRange,
  kLoops,
  pairItem,
  requests,
  samplersItem,
} from './dpsgd-requests.js';
import { apiWords } from './api-words.js';

const kFormulas = {
  pld: String.raw`P=\sum_{j=0}^{k}\Pr[J=j]\,\mathcal N(j,\sigma^2)\ \text{vs.}\ Q=\mathcal N(0,\sigma^2),\ \text{composed } T \text{ times}`,
  rdp: String.raw`q_k = 1-\Pr[J=0],\ \ \sigma_k = \sigma/k:\ \text{RDP of the subsampled Gaussian}\ (q_k, \sigma_k),\ T\text{ steps}`,
  generic: String.raw`\Bigl(k\varepsilon_1,\ \delta\,\frac{e^{k\varepsilon_1}-1}{e^{\varepsilon_1}-1}\Bigr)`,
  calibrated: String.raw`\sigma^\star = \min\{\sigma : \varepsilon_{\mathrm{PLD}}(\sigma; k, T, \delta) \le \varepsilon_{\text{target}}\}`,
  rule: String.raw`\sigma_{\text{rule}} = k\,\sigma^\star_{k=1}`,
  sampler: String.raw`\varepsilon_{\text{attack}} \le \varepsilon_{\text{exact}} \le \varepsilon_{\text{proven}}`,
};

const ok = (result) => ({ ok: true, result });
const atDelta = (result) => guaranteeElement(result.guarantee, { deltaIsGiven: true, vacuous: result.vacuous });
const bracketText = (lower, upper) => `exact ε ∈ [${formatNumber(lower, 'down')}, ${formatNumber(upper, 'up')}]`;
/** The bracket of a sampler's answer; a training without noise may have no finite ε at all. */
const resultBracket = (result) =>
  result.vacuous ? 'no finite ε at this δ' : bracketText(result.epsilon_lower, result.guarantee.epsilon);
/** A training that needs no accounting: no noise, or a sampling rate of 0 (no pair, no figures). */
const needsNoAccounting = (request) => request.noise_multiplier === 0 || request.sampling_rate === 0;

/** "q = B/N = 0.0042667" (cyclic Poisson: b·B/N): the sampling rate the Poisson samplers run at. */
function rateText(request) {
  const { dataset_size: n, batch_size: b, bands } = request;
  if ('sampling_rate' in request)
    return `q = ${formatNumber(request.sampling_rate, 'nearest')}, the link's sampling rate (editing N or B gives q = B/N)`;
  if (!(n > 0 && b > 0)) return '';
  return request.sampling === 'cyclic_poisson'
    ? `q = b·B/N = ${formatNumber((bands * b) / n, 'nearest')}`
    : `q = B/N = ${formatNumber(b / n, 'nearest')}`;
}

/** The sampling rate in a sentence for a paper: "q = 256/60000", "sampling rate q = 0.01"; '' without one. */
function rateWords(request) {
  const { dataset_size: n, batch_size: b, bands } = request;
  if ('sampling_rate' in request) return `sampling rate q = ${givenNumber(request.sampling_rate)}`;
  if (!(n > 0 && b > 0)) return '';
  return request.sampling === 'cyclic_poisson' ? `q = b·B/N = ${bands}·${b}/${n}` : `q = B/N = ${b}/${n}`;
}

/**
 * The answer in large type, under the headline: the sampler's ε (or the calibrated σ) with its
 * bracket (its status is the headline's label, proofOf).
 */
function answerElement(result, { calibrating, k, request }) {
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
      `${resultBracket(result)} for a group of k = ${k}, after ${result.steps.toLocaleString('en-US')} steps, ${rateText(request)}`,
    ),
  );
  // A bracket wider than the accuracy asked for says so, and why (as the Composition section's PLD row).
  if (result.methods?.pld?.note)
    parts.push(h('div', { class: 'note', dataset: { bracketNote: '' } }, result.methods.pld.note));
  if (result.steps_note) parts.push(h('div', { class: 'note' }, tidyNumbers(result.steps_note)));
  // The fixed-size batch assumption: said in the headline, and here in full, not as small print.
  if (result.note) parts.push(h('div', { class: result.status === 'tight' ? 'note' : 'assumption' }, result.note));
  return h('div', { class: 'big-answer', dataset: { answer: 'dpsgd' } }, parts);
}

// Which series the RDP row is: the exact fractional orders, where peers print a looser bound.
const kRdpSeriesNote =
  'Rényi DP at fractional orders exactly, with a bounded error (Mironov, Talwar, Zhang 2019, Sec. 3.3); ' +
  'dp_accounting 0.6.0 counts every term of the series with its absolute value, an upper bound that can be far above it.';

/** The RDP row's label: for one example the standard (proven) accountant, for groups an over-approximation. */
function rdpLabel(k, sampling) {
  if (k > 1) return 'RDP over-approximation (Sommer 2021; not proven for groups)';
  return sampling === 'poisson' ? 'Standard RDP accountant (proven)' : 'Standard RDP accountant (at q = B/N)';
}

/** The sampler's own row, for a sampler whose op 'dpsgd' answer compares no methods: its bounds and status. */
function samplerRows(result, fields, { loop, more }) {
  return [
    {
      id: 'sampler',
      label: `Your loop: ${kLoops[loop].words}`, // as requests() labels it
      formula: kFormulas.sampler,
      fields,
      response: ok(result),
      render: atDelta,
      proven: result.status !== 'not_proven',
      note: (r) => h('span', {}, resultBracket(r), h('br'), r.note, more ?? ''),
    },
  ];
}

function forwardRows(result, fields, { k, sampling, more, loop }) {
  if (!result.methods) return samplerRows(result, fields, { loop, more });
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
      proven: result.status !== 'not_proven',
      note: (r) => h('span', {}, bracketText(r.epsilon_lower, r.epsilon), r.note ? [h('br'), r.note] : '', more ?? ''),
    },
    {
      id: 'rdp-overapprox',
      label: rdpLabel(k, sampling),
      formula: kFormulas.rdp,
      fields,
      response: rdpResponse,
      render: atDelta,
      // Proven for one example under Poisson sampling only (rdpLabel).
      proven: k === 1 && sampling === 'poisson',
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
      proven: result.status !== 'not_proven',
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
      proven: result.status !== 'not_proven',
      note: (r) => `${sigmaNote(r.noise_multiplier)}; ${bracketText(r.epsilon_lower, r.guarantee.epsilon)}`,
    },
    {
      id: 'rule-of-thumb',
      label: 'Rule of thumb: k × the σ for k = 1',
      formula: kFormulas.rule,
      fields,
      response: ruleResponse,
      render: atDelta,
      proven: false, // a rule of thumb (Sommer 2021), not a bound
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

/** The pair figure of answered `pair`, or nothing when the pair itself cannot be formed (its fields are marked elsewhere). */
function pairFigure({ request, response }) {
  if (!response.ok) return [];
  return [
    chartFigure(densityPoints(response.result), {
      title: `The worst-case pair of one step (k = ${request.group_size}, σ = ${formatNumber(request.noise_multiplier)})`,
      xLabel: 'noisy gradient sum (units of the clip norm)',
      yLabel: 'density',
      yName: 'probability density',
      description:
        'Densities of the one-step pair: the mixture over how many of the group are in the batch against the Gaussian without them.',
      file: 'dpcalc-dpsgd-pair',
    }),
  ];
}

const kFixedBatchAssumption =
  'assuming the worst-case property for fixed-size batches (not proven; Poisson sampling is)';

/**
 * The headline: the group's tight ε at the person's δ (with the calibrated noise multiplier when
 * that was the question); with fixed-size batches it says in the same sentence that this analysis
 * assumes the worst-case property. Returns [text, { cite }].
 */
function headlineOf(result, { k, calibrating, sampling, loop, rate, delta }) {
  const group = `a group of ${k} example${k === 1 ? '' : 's'}`;
  if (result.vacuous) {
    const none = `no meaningful guarantee (no finite ε at δ = ${formatNumber(delta, 'down').replace(/^1 × /, '')})`;
    return [
      `${group[0].toUpperCase()}${group.slice(1)}: ${none} after ${result.steps.toLocaleString('en-US')} steps, without noise.`,
    ];
  }
  const bound = boundText(result.guarantee, { deltaIsGiven: true });
  const noise = calibrating ? `Noise multiplier σ = ${formatNumber(result.noise_multiplier)} gives ` : '';
  const how = samplerHow(result, { sampling, loop });
  const steps = result.steps.toLocaleString('en-US');
  const text = calibrating
    ? `${noise}${group} ${bound} after ${steps} steps${how}.`
    : `${group[0].toUpperCase()}${group.slice(1)}: ${bound} after ${steps} steps${how}.`;
  const sigma = paperNumber(result.noise_multiplier, calibrating ? 'up' : 'nearest');
  const cite = citeSentence({
    subject: `Training with DP-SGD (noise multiplier ${sigma}, ${steps} steps, ${kLoops[loop].words}${rate ? `, ${rate}` : ''})`,
    guarantee: paperGuarantee(result.guarantee, { deltaIsGiven: true }),
    scope: `for groups of ${k} example${k === 1 ? '' : 's'}`,
    method: hasMixture(sampling) ? 'the tight accounting of the worst-case pair' : methodWords(result.method),
    citation: result.citation,
    assumption:
      sampling === 'fixed_batch' ? 'assuming the worst-case property for fixed-size batches (Sommer 2021)' : '',
  });
  return [text, { cite, result }];
}

/**
 * What the headline's ε is: proven (tight, or the best proof with an attack below it), or not proven
 * (the fixed-size batch assumption, or a sampler whose bound rests on no proof).
 */
function proofOf(result, sampling) {
  if (result.status === 'tight') return proof.proven('Proven upper bound, tight');
  if (result.status === 'bracket') return proof.proven(`Proven upper bound; ${statusWords(result)}`);
  if (result.status === 'not_proven') {
    const words = statusWords(result);
    return proof.notProven(`${words[0].toUpperCase()}${words.slice(1)}`);
  }
  // A solved question's answer has no status: proven under Poisson sampling, assumed for fixed batches.
  if (sampling === 'fixed_batch')
    return proof.notProven('Not proven: assumes the worst-case property for fixed-size batches');
  return proof.proven('Proven upper bound');
}

/**
 * How the headline's number was found, for the loop's own sampler: Poisson's tight accounting, the
 * fixed-batch assumption, or the loop's words and the status of its bound ("re-shuffled each
 * epoch: no proof gives less than 17.857; an attack already reaches 7.2446").
 */
function samplerHow(result, { sampling, loop }) {
  if (sampling === 'poisson') return ' (Poisson sampling, tight accounting)';
  if (sampling === 'fixed_batch') return `, ${kFixedBatchAssumption}`;
  return ` (${kLoops[loop].words}: ${statusWords(result)})`;
}

const kPldLabel = 'Tight (worst-case mixture, PLD)';

async function updateDpsgd(section) {
  const { calculator, form, inputs, isCurrent, results, plots, errors, signal } = section;
  const asked = requests(inputs);
  const [item] = asked;
  const pair = asked.find((other) => other.id === 'pair');
  const fields = inputsOf(form, item.fields, item.request);
  const { request } = item;
  if (request.unknown) return solveDpsgd(section, { request, fields, loop: loopOf(inputs) });
  const calibrating = 'target' in request;
  if (hasMixture(request.sampling)) plotRange(form.elements.kmax, errors, kGroupsRange);
  const numeric = { calculator, signal, isCurrent, id: 'dpsgd-numeric' };
  // The row of the loop's own bound: the tight mixture's, or the sampler's (samplerRows).
  const own = hasMixture(request.sampling)
    ? { id: 'pld', label: kPldLabel, formula: kFormulas.pld }
    : { id: 'sampler', label: item.label, formula: kFormulas.sampler };
  await runNumeric(
    { ...numeric, label: calibrating ? 'Calibrating σ' : 'Tight accounting' },
    async ({ status, run }) => {
      const pending = methodRow(
        {
          ...own,
          status: 'running',
          pending: h('span', { class: 'pending' }, 'computing…'),
        },
        errors,
      );
      results.replaceChildren(status.element, methodTable({ caption: 'Methods', rows: [], errors }));
      results.querySelector('tbody').append(pending);
      plots.replaceChildren();
      showFieldErrors(form, errors);
      // A training for a given noise is answered with its trade-off, for the attacker panel.
      const train = (asked) => run(asked, (fraction) => 0.4 * fraction);
      const response = await (calibrating ? train(request) : askExplained(train, request));
      if (!isCurrent()) return;
      if (!response.ok) return refused(section, { response, fields, status, pair, own });
      await answered(section, { request, response, fields, status, run });
    },
  );
}

/** The training refused: the row says why; the pair needs no accounting, so it is drawn anyway. */
async function refused(section, { response, fields, status, pair, own }) {
  const { calculator, form, isCurrent, results, plots, errors, summary } = section;
  const rows = [{ ...own, fields, response, render: atDelta }];
  results.replaceChildren(methodTable({ caption: 'Methods', rows, errors }));
  status.finish('error', 'No answer: see the marked fields.');
  summary('No answer: check the marked fields.');
  showFieldErrors(form, errors);
  if (pair) {
    const figure = pairFigure(await answerItem(calculator, pair));
    if (isCurrent()) plots.replaceChildren(...figure);
  }
}

/** The answer, its table and headline, the pair, the attacker panel, then Sommer's figures. */
async function answered(section, { request, response, fields, status, run }) {
  const { calculator, inputs, isCurrent, results, plots, errors, signal, summary, explain } = section;
  const { result } = response;
  const calibrating = 'target' in request;
  const k = request.group_size;
  const loop = loopOf(inputs);
  const rows = calibrating
    ? calibrationRows(result, fields)
    : forwardRows(result, fields, {
        k,
        loop,
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
  const samplers = h('div', { class: 'samplers-part' });
  results.replaceChildren(samplers, status.element, methodTable({ caption, rows, errors }));
  const [text, options] = headlineOf(result, {
    k,
    calibrating,
    sampling: request.sampling,
    loop,
    rate: rateWords(request),
    delta: request.delta,
  });
  summary(text, {
    ...options,
    proof: proofOf(result, request.sampling),
    detail: answerElement(result, { calibrating, k, request }),
  });
  if (needsNoAccounting(request)) {
    samplers.replaceChildren(
      h('p', {}, 'Every sampler side by side, the pair and the figures need noise and a sampling rate above 0.'),
    );
    plots.replaceChildren();
    status.finish('done', 'Done.');
    return;
  }
  const base = answeredTraining(request, result);
  const mixture = hasMixture(request.sampling);
  await sideBySide({ request, sigma: base.noise_multiplier, loop, samplers, run, isCurrent, to: mixture ? 0.6 : 1 });
  if (!isCurrent()) return;
  if (!mixture) {
    plots.replaceChildren();
    // The trade-off is read from the composed PLDs, which only some samplers' answers carry.
    if (result.tradeoff) explain({ of: base, response, groupSize: k });
    status.finish('done', 'Done.');
    return;
  }
  const figure = pairFigure(await answerItem(calculator, pairItem(request, base.noise_multiplier)));
  if (!isCurrent()) return;
  plots.replaceChildren(...figure);
  // A forward training's answer carries the trade-off of `base`, the same training counted in steps.
  explain({
    of: base,
    response: calibrating ? undefined : response,
    one: k > 1 ? { ...base, group_size: 1 } : undefined,
    groupSize: k,
  });
  await figures({ items: figureItems(base, inputs), base, run, plots, isCurrent, from: 0.6 });
  if (isCurrent()) status.finish('done', 'Done.');
}

/** The loop of the section's `sampling` input (a kLoops key). */
const loopOf = (inputs) => (kLoops[inputs.sampling] ? inputs.sampling : 'poisson');

/**
 * The same training under every sampler (op 'dpsgd_samplers' at noise `sigma`, the bar from 0.4 to
 * `to`) into `samplers`: the sentence about the person's loop, then the table.
 */
async function sideBySide({ request, sigma, loop, samplers, run, isCurrent, to }) {
  const item = samplersItem(request, sigma);
  if (!item) {
    samplers.replaceChildren(
      h(
        'p',
        {},
        'This link gives the sampling rate itself: enter the dataset and batch sizes to compare every sampler.',
      ),
    );
    return;
  }
  samplers.replaceChildren(h('p', { class: 'pending' }, 'Every sampler side by side: computing…'));
  const response = await run(item.request, (fraction) => 0.4 + (to - 0.4) * fraction);
  if (!isCurrent()) return;
  if (!response.ok) {
    samplers.replaceChildren(
      h('p', { class: 'row-error' }, `Every sampler side by side: ${apiWords(response.error.message)}`),
    );
    return;
  }
  const { result } = response;
  const n = request.dataset_size.toLocaleString('en-US');
  const caption = `The same training under every batch sampler: N = ${n}, B = ${request.batch_size}, σ = ${formatNumber(sigma)}`;
  samplers.replaceChildren(
    h('p', { class: 'sampler-sentence', dataset: { samplerSentence: loop } }, chosenSentence(result, loop)),
    samplersTable(result, { chosen: loop, caption }),
  );
}

/** Sommer's figures 2 and 3: ε vs steps for k = 1…5, and ε vs k for several σ. */
async function figures({ items, base, run, plots, isCurrent, from }) {
  const answers = [];
  for (const [i, item] of items.entries()) {
    answers.push({
      ...item,
      response: await run(item.request, (fraction) => from + ((1 - from) * (i + fraction)) / items.length),
    });
    if (!isCurrent()) return;
  }
  const stepsPoints = [];
  const kPoints = [];
  for (const job of answers) {
    if (!job.response.ok) continue;
    const { guarantee, methods } = job.response.result;
    const point = (series, key, x, y) => ({ series, key, x, y, xRole: 'given', yRole: 'upper' });
    if (job.role === 'steps') {
      stepsPoints.push(point(`k = ${job.k}, tight`, `dpsgd-tight-${job.k}`, job.steps, guarantee.epsilon));
      const rdp = methods.rdp_overapprox;
      if (Number.isFinite(rdp.epsilon))
        stepsPoints.push(point(`k = ${job.k}, RDP`, `dpsgd-rdp-${job.k}`, job.steps, rdp.epsilon));
    } else {
      kPoints.push(
        point(
          `σ = ${formatNumber(job.request.noise_multiplier)}`,
          `dpsgd-sigma-${job.factor}`,
          job.k,
          guarantee.epsilon,
        ),
      );
    }
  }
  plots.append(...figureElements(stepsPoints, kPoints, base));
}

function figureElements(stepsPoints, kPoints, base) {
  return [
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
  ];
}

/** A "largest value for a target ε" question: one numeric request, its answer and one step beyond. */
async function solveDpsgd(section, { request, fields, loop }) {
  const { calculator, form, isCurrent, results, plots, errors, signal, summary } = section;
  const numeric = { calculator, signal, isCurrent, id: 'dpsgd-numeric', label: 'Searching' };
  await runNumeric(numeric, async ({ status, run }) => {
    results.replaceChildren(status.element);
    plots.replaceChildren();
    showFieldErrors(form, errors);
    const response = await run(request);
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
    const how = samplerHow(response.result, { sampling: request.sampling, loop });
    const [solvedText, solvedOptions] = solvedHeadline(response.result, {
      k: request.group_size,
      how,
      ...(hasMixture(request.sampling) && { method: 'the tight accounting of the worst-case pair' }),
    });
    summary(solvedText, { ...solvedOptions, proof: proofOf(response.result, request.sampling) });
    status.finish('done', 'Done.');
  });
}

export { updateDpsgd };
