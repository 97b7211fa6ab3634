// Worked example on the page: DP k-means with T iterations. Each iteration releases noisy cluster
// counts and noisy coordinate sums (Laplace, ℓ1 sensitivity 1: the points lie in the ℓ1 unit ball),
// each at ε/(2T), the budget rule of the algorithm; the calculator composes the releases after every
// iteration (kmeans-requests.js), and this module draws the answers.
import { fieldMessage, h } from './dom.js';
import { guaranteeElement, inputsOf, methodTable } from './results.js';
import { answerAll, byId, ofRole } from './ask.js';
import { approxOf, itemOf } from './compose-methods.js';
import { formatNumber, parseNumber } from './format.js';
import { formulaElement, formulas } from './formula.js';
import { boundText, citeSentence, methodWords, paperGuarantee, proof } from './headline.js';
import { iterationsOf, kMaxIterations, requests, shownIterations, stepEpsilonOf } from './kmeans-requests.js';
import { apiWords } from './api-words.js';

/** A cell of the step table: the answer, or its error (marked on its input when it names one). */
function cell(response, render, label, { fieldMap, errors }) {
  if (response.ok) return h('td', { dataset: { label } }, render(response.result));
  const marked = fieldMap[response.error.field];
  if (!marked) return h('td', { class: 'row-error', dataset: { label } }, apiWords(response.error.message));
  if (!errors.has(marked)) errors.set(marked, fieldMessage(marked, response.error.message, response.error.field));
  return h('td', { class: 'row-error', dataset: { label } }, `Check the marked field: ${errors.get(marked)}`);
}

/**
 * The table of the budget spent after each iteration shown; its zCDP column, at a δ nobody set
 * (`deltaSet` false), is said to be at the example δ and not drawn in the answer's type.
 */
function stepTable(steps, iterations, marking, deltaSet) {
  const zcdpHead = deltaSet ? 'zCDP composition' : 'zCDP composition, at the example δ (not set by you)';
  const stepRows = shownIterations(iterations).map((t) => {
    if (t === null) return h('tr', {}, h('td', { colspan: '4', class: 'ellipsis' }, '…'));
    const basic = steps[`step-${t}-basic`].response;
    const zcdp = steps[`step-${t}-zcdp`].response;
    return h(
      'tr',
      { dataset: { iteration: String(t) } },
      h('th', { scope: 'row' }, String(t)),
      h(
        'td',
        { dataset: { label: 'Releases so far' } },
        `${2 * t}: counts and sums of ${t === 1 ? 'iteration 1' : `iterations 1–${t}`}`,
      ),
      cell(basic, (result) => guaranteeElement(result.guarantee), 'Basic composition', marking),
      cell(
        zcdp,
        (result) =>
          h(
            'span',
            { class: deltaSet ? undefined : 'example-value' },
            guaranteeElement(approxOf(result), { deltaIsGiven: true, vacuous: result.vacuous }),
          ),
        zcdpHead,
        marking,
      ),
    );
  });
  const head = ['Iteration t', 'Releases so far', 'Basic composition', zcdpHead];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'steps' },
      h('caption', {}, 'Budget spent after each iteration'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((text) => h('th', { scope: 'col' }, text)),
        ),
      ),
      h('tbody', {}, stepRows),
    ),
  );
}

async function updateKmeans({ calculator, form, inputs, isCurrent, results, errors, summary, isSet, explain }) {
  const iterations = iterationsOf(inputs);
  if (iterations === null) {
    errors.set(form.elements.iterations, `Enter a whole number of iterations from 1 to ${kMaxIterations}.`);
    if (isCurrent()) results.replaceChildren(h('p', { class: 'row-error' }, 'Check the marked field.'));
    summary('No answer: check the marked fields.');
    return;
  }
  const items = requests(inputs);
  const [steps, totals] = await Promise.all([
    answerAll(calculator, ofRole(items, 'step')),
    answerAll(calculator, ofRole(items, 'row')),
  ]);
  if (!isCurrent()) return;
  const stepEpsilon = stepEpsilonOf(inputs);
  // Every row's fields are the same two inputs; the zCDP total's request has both.
  const fieldMap = inputsOf(form, totals.at(-1).fields, totals.at(-1).request);
  const stepText = Number.isFinite(stepEpsilon) ? formatNumber(stepEpsilon, 'down') : '—';
  const rows = totals.map((item) => ({
    ...item,
    formula: formulas[item.formula],
    example:
      item.id !== 'basic' && !isSet('delta') ? `at the example δ = ${inputs.delta.trim()}, not set by you` : undefined,
    fields: inputsOf(form, item.fields, item.request),
    render: (result) =>
      guaranteeElement(approxOf(result), { vacuous: result.vacuous, deltaIsGiven: result.approx !== undefined }),
  }));
  results.replaceChildren(
    h(
      'p',
      { class: 'step-rule' },
      'Each release: Laplace noise with ',
      formulaElement(String.raw`\varepsilon_{\text{step}} = \frac{\varepsilon}{2T}`),
      ' = ',
      h('strong', { dataset: { stepEpsilon: String(stepEpsilon) } }, stepText),
      ` (T = ${iterations}).`,
    ),
    stepTable(byId(steps), iterations, { fieldMap, errors }, isSet('delta')),
    methodTable({ caption: `All ${2 * iterations} releases, by method`, rows, errors }),
  );
  summary(...headlineOf(totals, { stepText, iterations, deltaSet: isSet('delta') }));
  // The 2T pure releases composed exactly (their privacy loss distributions): what an attacker can do.
  if (totals[0].response.ok) {
    const item = { ...itemOf(stepEpsilon, 0), count: 2 * iterations };
    explain({ of: { op: 'compose', method: 'pld', delta: parseNumber(inputs.delta), items: [item] } });
  }
}

/**
 * The headline: the algorithm's own (pure) total by basic composition first, then the smallest ε
 * of the other methods at the comparison δ, marked as an example when the person did not set that δ.
 * Returns [text, { cite }].
 */
function headlineOf(totals, { stepText, iterations, deltaSet }) {
  const releases = 2 * iterations;
  const answered = totals.filter(({ response }) => response.ok && !response.result.vacuous);
  const basic = answered.find((answer) => answer.id === 'basic');
  const parts = [];
  let cite = '';
  if (basic) {
    const pure = { type: 'pure', epsilon: basic.response.result.guarantee.epsilon };
    parts.push(`pure ${boundText(pure)}, by basic composition`);
    cite = citeSentence({
      subject: `DP k-means with ${iterations} iterations (${releases} Laplace releases, each ${stepText}-DP)`,
      guarantee: paperGuarantee(pure),
      method: methodWords(basic.response.result.method),
      citation: basic.response.result.citation,
    });
  }
  const atDelta = answered.filter((answer) => answer.id !== 'basic');
  if (atDelta.length > 0) {
    const best = atDelta.reduce((a, b) =>
      approxOf(b.response.result).epsilon < approxOf(a.response.result).epsilon ? b : a,
    );
    const example = deltaSet ? '' : ' (at the example δ, not set by you)';
    parts.push(
      `${boundText(approxOf(best.response.result), { deltaIsGiven: true })}, by ${methodWords(best.label)}${example}`,
    );
  }
  if (parts.length === 0) return [`Each release: ε = ${stepText}. No total: check the marked fields.`];
  return [
    `Each release: ε = ${stepText}; all ${releases} releases: ${parts.join('; ')}.`,
    { cite, result: basic?.response.result, proof: proof.proven() },
  ];
}

export { updateKmeans };
