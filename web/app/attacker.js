// "What an attacker can do": a section's answer read as a limit on membership tests. A guarantee
// bounds every test of whether a person (or a group of k records) was in the data: at each
// false-positive rate α, no test misses fewer than β = f(α) of those who were (Wasserman, Zhou 2010;
// Kairouz, Oh, Viswanath 2015; Dong, Roth, Su 2019). The panel says what follows in plain words, each
// number an upper bound rounded up ("at most"), and draws the curve as an ROC curve (true-positive
// against false-positive rate, linear or log axes) with the random-guess diagonal and, for a group,
// the curve of one record beside it. Its numbers are those of op 'tradeoff' (docs/API.md): the
// section's answer carries them (`explain`, result.tradeoff) where the section sent the request it
// explains, else the panel asks op 'tradeoff' (explained.js: tradeoffOf); `renderAttacker` draws them.
import { h } from './dom.js';
import { chartCsv, chartFigure } from './chart.js';
import { roundTo } from './format.js';
import { citeElement } from './results.js';
import { settleUnlessAborted } from './ask.js';
import { kDefaultFpr, kFpr, tradeoffOf, tradeoffRequest } from './explained.js';
import { fprField, fprSentence, fprShown, percentUp, tprAt } from './attacker-fpr.js';
import { routeHash } from './router.js';
import { isNumeric } from '../client.js';
import { apiWords } from './api-words.js';

/** Who is tested: a person, or a group of k records (`size`), in the words of each sentence. */
function subjectOf(size) {
  if (!(size > 1)) {
    return {
      test: 'Any membership test',
      negatives: 'people who were not in the data',
      positives: 'those who were',
      members: 'people who were in the data',
      others: 'those who were not',
      one: 'this person',
    };
  }
  return {
    test: `Any test of whether a group of ${size} records was in the data`,
    negatives: 'groups that were not',
    positives: 'those that were',
    members: 'groups that were in the data',
    others: 'those that were not',
    one: `this group of ${size} records`,
  };
}

/** The two or three sentences the panel says, each with "at most" (for the LaTeX export too). */
export function attackerSentences(result, { groupSize, oneRecord } = {}) {
  const words = subjectOf(groupSize);
  const tpr = tprAt(result, kFpr);
  if (result.vacuous || !(tpr < 1)) {
    return [
      `This guarantee does not limit membership tests: as far as it says, a test could tell whether ${words.one} was in the data without error.`,
    ];
  }
  const alone = oneRecord ? ` (for one record alone: at most ${percentUp(tprAt(oneRecord, kFpr))})` : '';
  const sentences = [
    `${words.test} that wrongly flags at most 1 in 1,000 ${words.negatives} catches at most ${percentUp(tpr)} of ${words.positives}${alone}.`,
    `Whatever threshold it uses, such a test flags at most ${percentUp(result.advantage).replace('%', ' percentage points')} more of the ${words.members} than of ${words.others}.`,
  ];
  // δ > 0 lets rare outcomes make an attacker certain: a posterior of 100% would say nothing.
  if (result.posterior && result.posterior.max_posterior < 0.995) {
    sentences.push(
      `Someone who thought it a coin toss whether ${words.one} was in the data can become at most ${percentUp(result.posterior.max_posterior)} sure that it was.`,
    );
  }
  return sentences;
}

/** The ROC curve of a result as chart points (TPR against FPR), with `log` the points a log axis can show. */
function rocPoints(result, series, key, log) {
  const { alpha, tpr } = result.curve;
  return alpha
    .map((x, i) => ({ series, key, x, y: Math.min(1, tpr[i]), xRole: 'given', yRole: 'upper' }))
    .filter((point) => !log || (point.x > 0 && point.y > 0));
}

function figureOf(result, oneRecord, { groupSize, log, file }) {
  const own = groupSize > 1 ? `a group of ${groupSize} records` : 'one record';
  const points = [...rocPoints(result, `best test against ${own} (at most)`, 'attacker-group', log)];
  if (oneRecord) points.push(...rocPoints(oneRecord, 'best test against one record (at most)', 'attacker-one', log));
  points.push(
    ...result.curve.alpha
      .filter((x) => !log || x > 0)
      .map((x) => ({ series: 'random guess', key: 'attacker-guess', x, y: x, xRole: 'given', yRole: 'given' })),
  );
  return chartFigure(points, {
    title: `What a membership test can reach: true-positive against false-positive rate${log ? ' (log axes)' : ''}`,
    xLabel: 'false-positive rate',
    yLabel: 'true-positive rate',
    xName: 'false-positive rate (non-members wrongly flagged)',
    yName: 'true-positive rate (members caught), at most',
    xLog: log,
    yLog: log,
    description:
      'ROC curve: the largest fraction of members any test catches at each fraction of non-members it wrongly flags, with the diagonal of random guessing.',
    // The log axes leave out the rates at 0: another table, so another name.
    file: log ? `${file}-log` : file,
  });
}

/** Linear or log axes: two toggle buttons (aria-pressed, `initial` pressed first) that redraw the figure. */
export function axesChoice(onChange, initial = 'linear') {
  const buttons = [
    ['linear', 'Linear axes'],
    ['log', 'Log axes (small rates)'],
  ].map(([value, label]) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        dataset: { axes: value },
        'aria-pressed': String(value === initial),
      },
      label,
    ),
  );
  for (const button of buttons) {
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
      onChange(button.dataset.axes === 'log');
    });
  }
  return h('div', { class: 'axes-choice', role: 'group', 'aria-label': 'Axes of the plot' }, buttons);
}

const heading = () => h('h3', {}, 'What an attacker can do');

/** While the new answer computes, the last one stays (marked busy); the first time says so. */
function markBusy(holder) {
  holder.dataset.ready = 'false';
  holder.setAttribute('aria-busy', 'true');
  if (!holder.firstChild) {
    holder.replaceChildren(
      h('div', { class: 'attacker-panel' }, heading(), h('p', { class: 'pending' }, 'computing…')),
    );
  }
}

/**
 * The trade-off answers of the panel: of `of` (the section's answer to it is `response`, when it
 * sent exactly `of`) and, for a group, of `one`. Only numeric work is aborted with `signal`:
 * cancelling a closed form would restart the worker for nothing. Rejects with an AbortError when
 * cancelled.
 */
function tradeoffAnswers(calculator, { of, response, one }, signal) {
  const ask = (request) => settleUnlessAborted(calculator.run(request, isNumeric(request) ? { signal } : {}));
  return Promise.all([tradeoffOf(ask, of, response), one ? tradeoffOf(ask, one) : null]);
}

/**
 * Asks the trade-off of `of` (and of `one`) at false-positive rate `fpr` alone, for the panel's FPR
 * input: the curve's points cannot be interpolated (a chord lies below the concave curve, so it would
 * not bound the TPR). Resolves to [answer, oneAnswer]; rejects with an AbortError when cancelled.
 */
function tradeoffsAt(calculator, { of, one }, fpr, signal) {
  const ask = (request) => settleUnlessAborted(calculator.run(request, isNumeric(request) ? { signal } : {}));
  return Promise.all([ask(tradeoffRequest(of, [fpr])), one ? ask(tradeoffRequest(one, [fpr])) : null]);
}

/**
 * "Audit this claim": the Audit section (audit.js) with request `of`, the answer explained here, as
 * the claim an attack is checked against; `title` is the section's, for the Audit section's words.
 */
function auditLink(of, title) {
  const claim = { claim: 'request', claim_request: JSON.stringify(tradeoffRequest(of).of), claim_from: title };
  return h(
    'p',
    { class: 'audit-claim' },
    h('a', { href: routeHash('audit', claim), dataset: { auditClaim: '' } }, 'Audit this claim'),
    ': check what a membership attack you ran proves against this result.',
  );
}

/**
 * Draws in `holder` the panel for `answer` (the trade-off response of the section's answer to
 * request `of`) and `oneAnswer` (of one record, beside a group's), about `groupSize` records; `name`
 * and `title` are the section's.
 */
export function renderAttacker(holder, { answer, oneAnswer, groupSize = 1, name, title, of, askAt }) {
  holder.removeAttribute('aria-busy');
  holder.dataset.ready = 'true';
  // The section marks its own fields; there is nothing to say about an answer it does not have.
  if (!answer.ok) {
    holder.replaceChildren();
    return;
  }
  const result = answer.result;
  const oneRecord = oneAnswer?.ok && groupSize > 1 ? oneAnswer.result : null;
  const file = `dpcalc-${name}-attacker`;
  const linear = figureOf(result, oneRecord, { groupSize, log: false, file });
  const figureHolder = h('div', { class: 'chart-holder' }, linear);
  const redraw = (log) =>
    figureHolder.replaceChildren(log ? figureOf(result, oneRecord, { groupSize, log, file }) : linear);
  const panel = h(
    'div',
    { class: 'attacker-panel' },
    heading(),
    h(
      'div',
      { class: 'attacker-sentences', dataset: { attackerSentences: name } },
      attackerSentences(result, { groupSize, oneRecord }).map((text) => h('p', {}, text)),
    ),
    fprPart(holder, { result, oneRecord, groupSize, name, askAt }),
    methodNote(result),
    axesChoice(redraw),
    figureHolder,
    of ? auditLink(of, title ?? name) : null,
  );
  // The whole curve (the linear figure's points: the log axes leave out the rates at 0).
  curves.set(panel, linear);
  holder.replaceChildren(panel);
}

function methodNote(result) {
  return h(
    'p',
    { class: 'note' },
    'Every number is an upper bound for the best possible test, whatever the attacker knows or computes. Method: ',
    result.method,
    result.mu === undefined ? '' : `, μ = ${roundTo(result.mu, 'up', 3)}`,
    ' (',
    citeElement(result.citation, [result.citation_key].flat()),
    ').',
  );
}

/**
 * Shows in `holder` the panel for the answer to request `of` (`response`: the section's answer to
 * it, when it sent exactly `of`; and, for a group, `one`: the same setting for one record), about
 * `groupSize` records, with a link that audits it (`title`: the section's). Asks through `calculator` (numeric sources in the worker, aborted with
 * `signal`); does nothing once `isCurrent()` is false.
 */
export async function showAttacker(
  holder,
  { calculator, of, response, one, groupSize = 1, name, title, isCurrent, signal },
) {
  markBusy(holder);
  let answers;
  try {
    answers = await tradeoffAnswers(calculator, { of, response, one }, signal);
  } catch (error) {
    if (error?.name === 'AbortError') return;
    throw error;
  }
  if (!isCurrent()) return;
  const [answer, oneAnswer] = answers;
  const askAt = (fpr, fprSignal) => tradeoffsAt(calculator, { of, one }, fpr, fprSignal);
  renderAttacker(holder, { answer, oneAnswer, groupSize, name, title, of, askAt });
}

// The FPR each panel's input holds (kept when the section's answer changes).
const chosenFprs = new WeakMap();

/**
 * The panel's FPR input and its sentence: at the rate the person chose (kDefaultFpr until then),
 * the largest TPR; a rate the answer has no point for is asked with `askAt(fpr, signal)`.
 */
function fprPart(holder, { result, oneRecord, groupSize, name, askAt }) {
  // Not live: the section's summary line is the one thing a result announces (a11y.test.mjs).
  const sentence = h('p', { class: 'attacker-fpr', dataset: { attackerFpr: name } });
  let asking = null;
  const show = async (fpr) => {
    asking?.abort();
    const own = tprAt(result, fpr);
    const alone = oneRecord ? tprAt(oneRecord, fpr) : undefined;
    if (own !== undefined && (!oneRecord || alone !== undefined)) {
      sentence.textContent = fprSentence({ fpr, tpr: own, alone, groupSize, vacuous: result.vacuous });
      return;
    }
    sentence.textContent = `At FPR ${fprShown(fpr)}: computing…`;
    asking = new AbortController();
    try {
      const [answer, oneAnswer] = await askAt(fpr, asking.signal);
      if (!answer.ok) {
        sentence.textContent = `At FPR ${fprShown(fpr)}: ${apiWords(answer.error.message)}`;
        return;
      }
      const one = oneAnswer?.ok ? tprAt(oneAnswer.result, fpr) : undefined;
      sentence.textContent = fprSentence({ fpr, tpr: tprAt(answer.result, fpr), alone: one, groupSize });
    } catch (error) {
      if (error?.name !== 'AbortError') throw error;
    }
  };
  const field = fprField(`${name}-attacker-fpr`, chosenFprs.get(holder) ?? null, (fpr, text) => {
    chosenFprs.set(holder, text);
    show(fpr).catch((error) => console.error(error));
  });
  show(field.value() ?? kDefaultFpr).catch((error) => console.error(error));
  return h('div', { class: 'attacker-at-fpr' }, field.element, sentence);
}

const curves = new WeakMap();

/**
 * The CSV of the trade-off curve shown in `element` (a section): { file, text() } of its attacker
 * panel's figure, or undefined when the panel shows no curve.
 */
export function attackerCurveCsv(element) {
  const panel = element.querySelector('.attacker-panel');
  return panel && curves.has(panel) ? chartCsv(curves.get(panel)) : undefined;
}
