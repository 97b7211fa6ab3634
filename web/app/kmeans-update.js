// Worked example: DP k-means with T iterations. Each iteration releases noisy cluster counts and
// noisy coordinate sums (Laplace, ℓ1 sensitivity 1: the points lie in the ℓ1 unit ball), each at
// ε/(2T), the budget rule of the algorithm; the calculator composes the releases after every iteration.
import { fieldMessage, h, readNumber } from './dom.js';
import { askAll, guaranteeElement, methodTable } from './results.js';
import { approxOf, compositionMethods, itemOf } from './composition-update.js';
import { formatNumber } from './format.js';
import { formulaElement } from './formula.js';
import { boundText, citeSentence, methodWords, paperGuarantee } from './headline.js';

const kMaxIterations = 10000;
const kShownIterations = 12;

/** The iterations shown step by step: all of them when few, else the first and last few. */
function shownIterations(iterations) {
  if (iterations <= kShownIterations) return Array.from({ length: iterations }, (_, i) => i + 1);
  const head = Array.from({ length: kShownIterations - 3 }, (_, i) => i + 1);
  return [...head, null, iterations - 1, iterations];
}

async function updateKmeans({ calculator, input, isCurrent, results, errors, summary, isSet, explain }) {
  const fields = { epsilon: input('epsilon'), iterations: input('iterations'), delta: input('delta') };
  const epsilon = readNumber(fields.epsilon);
  const delta = readNumber(fields.delta);
  const iterationsText = fields.iterations.value.trim();
  const iterations = Number(iterationsText);
  if (!/^\d+$/.test(iterationsText) || iterations < 1 || iterations > kMaxIterations) {
    errors.set(fields.iterations, `Enter a whole number of iterations from 1 to ${kMaxIterations}.`);
    if (isCurrent()) results.replaceChildren(h('p', { class: 'row-error' }, 'Check the marked field.'));
    summary('No answer: check the marked fields.');
    return;
  }
  // The algorithm's own budget rule, not an accounting result: 2T releases share ε equally.
  const stepEpsilon = epsilon / (2 * iterations);
  const item = itemOf(stepEpsilon, 0);
  const fieldMap = { 'items.0.guarantee.epsilon': fields.epsilon, delta: fields.delta };
  const shown = shownIterations(iterations);
  const stepRequests = shown
    .filter((t) => t !== null)
    .flatMap((t) => [
      { op: 'compose', method: 'basic', items: [{ ...item, count: 2 * t }] },
      { op: 'compose', method: 'zcdp', delta, items: [{ ...item, count: 2 * t }] },
    ]);
  const totals = compositionMethods.filter((method) =>
    ['basic', 'advanced-kov', 'optimal', 'zcdp'].includes(method.id),
  );
  const [stepResponses, totalResponses] = await Promise.all([
    askAll(calculator, stepRequests),
    askAll(
      calculator,
      totals.map((method) => method.request([{ ...item, count: 2 * iterations }], delta)),
    ),
  ]);
  if (!isCurrent()) return;

  let next = 0;
  const cell = (response, render, label) => {
    if (response.ok) return h('td', { dataset: { label } }, render(response.result));
    const marked = fieldMap[response.error.field];
    if (!marked) return h('td', { class: 'row-error', dataset: { label } }, response.error.message);
    if (!errors.has(marked)) errors.set(marked, fieldMessage(marked, response.error.message));
    return h('td', { class: 'row-error', dataset: { label } }, `Check the marked field: ${errors.get(marked)}`);
  };
  const stepRows = shown.map((t) => {
    if (t === null) return h('tr', {}, h('td', { colspan: '4', class: 'ellipsis' }, '…'));
    const basic = stepResponses[next];
    const zcdp = stepResponses[next + 1];
    next += 2;
    return h(
      'tr',
      { dataset: { iteration: String(t) } },
      h('th', { scope: 'row' }, String(t)),
      h(
        'td',
        { dataset: { label: 'Releases so far' } },
        `${2 * t}: counts and sums of ${t === 1 ? 'iteration 1' : `iterations 1–${t}`}`,
      ),
      cell(basic, (result) => guaranteeElement(result.guarantee), 'Basic composition'),
      cell(
        zcdp,
        (result) => guaranteeElement(approxOf(result), { deltaIsGiven: true, vacuous: result.vacuous }),
        'zCDP composition',
      ),
    );
  });
  const stepText = Number.isFinite(stepEpsilon) ? formatNumber(stepEpsilon, 'down') : '—';
  const rows = totals.map((method, i) => ({
    id: method.id,
    label: method.label,
    formula: method.formula,
    response: totalResponses[i],
    example:
      method.id !== 'basic' && !isSet('delta')
        ? `at the example δ = ${fields.delta.value.trim()}, not set by you`
        : undefined,
    fields: fieldMap,
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
    h(
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
            h('th', { scope: 'col' }, 'Iteration t'),
            h('th', { scope: 'col' }, 'Releases so far'),
            h('th', { scope: 'col' }, 'Basic composition'),
            h('th', { scope: 'col' }, 'zCDP composition'),
          ),
        ),
        h('tbody', {}, stepRows),
      ),
    ),
    methodTable({ caption: `All ${2 * iterations} releases, by method`, rows, errors }),
  );
  summary(...headlineOf(totals, totalResponses, { stepText, iterations, deltaSet: isSet('delta') }));
  // The 2T pure releases composed exactly (their privacy loss distributions): what an attacker can do.
  if (totalResponses[0].ok) {
    explain({ of: { op: 'compose', method: 'pld', delta, items: [{ ...item, count: 2 * iterations }] } });
  }
}

/**
 * The headline: the algorithm's own (pure) total by basic composition first, then the smallest ε
 * of the other methods at the comparison δ, marked as an example when the person did not set that δ.
 * Returns [text, { cite }].
 */
function headlineOf(totals, responses, { stepText, iterations, deltaSet }) {
  const releases = 2 * iterations;
  const answered = responses
    .map((response, i) => ({ response, label: totals[i].label, id: totals[i].id }))
    .filter(({ response }) => response.ok && !response.result.vacuous);
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
  return [`Each release: ε = ${stepText}; all ${releases} releases: ${parts.join('; ')}.`, { cite }];
}

export { updateKmeans };
