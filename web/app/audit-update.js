// The Audit section on the page: op 'audit' on the evidence entered (audit-requests.js), answered
// first as the headline ("At 95% confidence the attack proves ε ≥ 3.87; it refutes (3, 10⁻⁵)-DP"),
// then a table of the lower bounds and intervals with their formulas and citations, the claim check,
// and the claim's trade-off curve with the observed rates and their Clopper–Pearson box
// (audit-figure.js). Every number is a statistical lower bound (or an interval) at the confidence
// chosen, never a guarantee; every one comes from the core.
import { h } from './dom.js';
import { formulaElement } from './formula.js';
import { citeElement, collectFieldError, inputsOf } from './results.js';
import { answerItem, byId } from './ask.js';
import { formatNumber, numberText } from './format.js';
import { givenNumber, methodWords, paperNumber, proof } from './headline.js';
import { keysOf } from './citation-keys.js';
import { runNumeric } from './numeric.js';
import { isNumeric } from '../client.js';
import { claimOf, confidenceText, evidenceOf, requests } from './audit-requests.js';
import { scoresBox } from './audit-scores-field.js';
import { auditFigure } from './audit-figure.js';
import { apiWords } from './api-words.js';

const kFormulas = {
  counts: String.raw`\varepsilon \ge \max\Bigl\{0,\ \ln\frac{\mathrm{TPR}_{lo}-\delta}{\mathrm{FPR}_{hi}},\ \ln\frac{\mathrm{TNR}_{lo}-\delta}{\mathrm{FNR}_{hi}}\Bigr\}`,
  one_run: String.raw`\Pr\bigl[\mathrm{Binomial}\bigl(r, \tfrac{e^{\varepsilon}}{1+e^{\varepsilon}}\bigr) \ge v\bigr] \le 1 - \text{confidence}\quad(\text{at }\delta = 0;\ \text{Steinke et al.'s theorem adds }\delta)`,
  mu: String.raw`\mu \ge \Phi^{-1}(\mathrm{TPR}_{lo}) - \Phi^{-1}(\mathrm{FPR}_{hi})`,
  tpr: String.raw`\mathrm{TPR}_{lo} = \mathrm{Beta}^{-1}\bigl(\tfrac{\alpha}{2};\ \mathrm{TP},\ P-\mathrm{TP}+1\bigr)`,
  fpr: String.raw`\mathrm{FPR}_{hi} = \mathrm{Beta}^{-1}\bigl(1-\tfrac{\alpha}{2};\ \mathrm{FP}+1,\ N-\mathrm{FP}\bigr)`,
};

/** The asked items answered: numeric ones (scores, a DP-SGD claim) under the status line, with Cancel. */
async function answered(context, items, results) {
  const { calculator, signal, isCurrent } = context;
  if (!items.some((item) => isNumeric(item.request)))
    return Promise.all(items.map((item) => answerItem(calculator, item)));
  return runNumeric(
    { calculator, signal, isCurrent, id: 'audit-numeric', label: 'The audit' },
    async ({ status, run }) => {
      results.replaceChildren(status.element);
      const done = await Promise.all(items.map(async (item) => ({ ...item, response: await run(item.request) })));
      status.finish('done', 'Computed.');
      return done;
    },
  );
}

const bound = (text, dataset = {}) => h('span', { class: 'bound', dataset }, text);

/** A row of the table; `citation` and `keys` where the row's number has its own source. */
function row({ id, label, method, answer, note, formula, citation, keys = [] }) {
  return h(
    'tr',
    { dataset: { row: id, ok: 'true' } },
    h(
      'th',
      { scope: 'row' },
      h('span', { class: 'row-label' }, label),
      method ? h('span', { class: 'method' }, method) : null,
    ),
    h(
      'td',
      { class: 'answer', dataset: { label: 'Bound' } },
      h('div', {}, answer, note ? h('div', { class: 'note' }, note) : null),
    ),
    // An empty cell has no label (a phone shows each cell's label above it).
    h(
      'td',
      { class: 'formula-cell', dataset: formula ? { label: 'Formula' } : {} },
      formula ? formulaElement(formula) : '',
    ),
    h(
      'td',
      { class: 'citation', dataset: citation ? { label: 'Citation' } : {} },
      citation ? citeElement(citation, keys) : '',
    ),
  );
}

const interval = ([low, high]) => `[${formatNumber(low, 'down')}, ${formatNumber(high, 'up')}]`;

/** The rows of the table for the audit's `result` (`words`: the confidence and the claim as the page says them). */
function rowsOf(result, words) {
  const { confidence } = words;
  const atDelta = result.delta > 0 ? ` at δ = ${givenNumber(result.delta)}` : '';
  const rows = [
    row({
      id: 'epsilon',
      label: 'Privacy loss ε',
      method: result.method,
      answer: bound(`ε ≥ ${formatNumber(result.epsilon_lower, 'down')}${atDelta}`, {
        epsilon: String(result.epsilon_lower),
      }),
      note: `a statistical lower bound at ${confidence} confidence, not a guarantee`,
      formula: kFormulas[result.kind === 'one_run' ? 'one_run' : 'counts'],
      citation: result.citation,
      keys: keysOf(result.citation_key),
    }),
  ];
  if (typeof result.mu_lower === 'number') {
    rows.push(
      row({
        id: 'mu',
        label: 'Gaussian DP μ',
        answer: bound(`μ ≥ ${formatNumber(result.mu_lower, 'down')}`, { mu: String(result.mu_lower) }),
        note: 'the μ-GDP claims the same rates refute',
        formula: kFormulas.mu,
      }),
    );
  }
  if (result.tpr_interval && result.fpr_interval) {
    rows.push(
      row({
        id: 'tpr',
        label: 'True-positive rate (members caught)',
        answer: bound(`TPR ≥ ${formatNumber(result.tpr_interval[0], 'down')}`),
        note: `the interval ${interval(result.tpr_interval)}: exact one-sided Clopper–Pearson, half the significance`,
        formula: kFormulas.tpr,
      }),
      row({
        id: 'fpr',
        label: 'False-positive rate (non-members flagged)',
        answer: bound(`FPR ≤ ${formatNumber(result.fpr_interval[1], 'up')}`),
        note: `the interval ${interval(result.fpr_interval)}: exact one-sided Clopper–Pearson, the other half`,
        formula: kFormulas.fpr,
      }),
    );
  }
  if (result.threshold !== undefined) {
    rows.push(
      row({
        id: 'threshold',
        label: 'Threshold chosen',
        answer: bound(`score ≥ ${numberText(result.threshold)}`),
        note: `the best of ${result.thresholds_tried} thresholds tried, ${result.correction}`,
      }),
    );
  }
  if (typeof result.refutes === 'boolean') rows.push(claimRow(result, words));
  return rows;
}

function claimRow(result, words) {
  // The core's sentence says what the claim allows where the attack was measured and what it reached.
  const allowed =
    typeof result.claim_allowed_tpr === 'number'
      ? `It allows TPR ≤ ${formatNumber(result.claim_allowed_tpr, 'up')} at FPR ${formatNumber(result.claim_at_fpr, 'up')}.`
      : '';
  return row({
    id: 'claim',
    label: `The claim: ${words.claimWords}`,
    answer: h(
      'span',
      { class: result.refutes ? 'refuted' : 'consistent', dataset: { refutes: String(result.refutes) } },
      result.refutes ? 'refuted by the attack' : 'consistent with the attack',
    ),
    note: result.claim_sentence
      ? `${result.claim_sentence[0].toUpperCase()}${result.claim_sentence.slice(1)}.`
      : allowed,
  });
}

function auditTable(rows, confidence) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'methods audit' },
      h('caption', {}, `What the attack proves, at ${confidence} confidence over the experiment`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Quantity', 'Lower bound or interval', 'Formula', 'Citation'].map((text) => h('th', { scope: 'col' }, text)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** The headline and the sentence for a paper: [text, { cite }]. */
function headlineOf(result, words) {
  const { confidence } = words;
  const atDelta = result.delta > 0 ? ` at δ = ${givenNumber(result.delta)}` : '';
  const proves =
    result.epsilon_lower > 0
      ? `the attack proves ε ≥ ${paperNumber(result.epsilon_lower, 'down')}${atDelta}`
      : `the attack proves no ε above 0${atDelta}`;
  const mu =
    result.mu_lower > 0 && typeof result.refutes !== 'boolean'
      ? ` and μ ≥ ${paperNumber(result.mu_lower, 'down')}`
      : '';
  const check =
    typeof result.refutes === 'boolean'
      ? `; it ${result.refutes ? 'refutes' : 'does not refute'} ${words.claimWords}`
      : '';
  const text = `At ${confidence} confidence ${proves}${mu}${check}.`;
  const deltaWords = result.delta > 0 ? givenNumber(result.delta) : '0';
  const refuted = result.refutes ? `; the claimed ${words.claimWords} is refuted at that confidence` : '';
  const cite =
    `With probability at least ${confidence} over the experiment, the audited mechanism is not (ε, ${deltaWords})-DP ` +
    `for any ε < ${paperNumber(result.epsilon_lower, 'down')} (a statistical lower bound, not a guarantee), ` +
    `by ${methodWords(result.method)} (${result.citation})${refuted}.`;
  return [
    text,
    {
      cite,
      result,
      proof: proof.lowerBound(`Lower bound at ${confidence} confidence (statistical), not a guarantee`),
    },
  ];
}

/** The observed rates { x: FPR, y: TPR } of the counts behind `result`, or null (one run has none). */
function observedOf(result, evidence) {
  const counts = result.counts ?? (evidence.kind === 'counts' ? evidence : null);
  return counts ? { x: counts.false_positives / counts.negatives, y: counts.true_positives / counts.positives } : null;
}

/** Marks the fields a response's error names; the audit's errors on the scores go on the scores box. */
function markErrors(item, form, errors, box) {
  const { response } = item;
  if (!response || response.ok) return false;
  const field = response.error.field;
  if (/^evidence\.(member|nonmember)_scores/.test(field)) {
    box.showError(apiWords(response.error.message));
    return true;
  }
  if (/^(claim|of)(\.|$)/.test(field) && inputsOf(form, item.fields, item.request)[field] === undefined) {
    errors.set(form.elements.claim, `The claimed result: ${apiWords(response.error.message)}`);
    return true;
  }
  return collectFieldError(response, inputsOf(form, item.fields, item.request), errors);
}

async function updateAudit(context) {
  const { form, inputs, isCurrent, results, plots, errors, summary } = context;
  const box = scoresBox(form);
  const evidence = evidenceOf(inputs);
  const claim = claimOf(inputs);
  box.showError(evidence.problem ?? null);
  if (claim.problem) errors.set(form.elements.claim, claim.problem);
  const items = await answered(context, requests(inputs), results);
  if (!items || !isCurrent()) return;
  const { audit, 'claim-curve': curve } = byId(items);
  const marked = audit ? markErrors(audit, form, errors, box) : Boolean(evidence.problem);
  if (curve) markErrors(curve, form, errors, box);
  if (!audit?.response.ok) {
    const message = audit && !marked ? apiWords(audit.response.error.message) : 'Check the marked fields.';
    results.replaceChildren(h('p', { class: 'row-error', dataset: { auditError: '' } }, `No audit: ${message}`));
    plots.replaceChildren();
    summary(marked ? 'No answer: check the marked fields.' : 'No answer: see the message below.');
    return;
  }
  const { result } = audit.response;
  const words = { claimWords: audit.claimWords, confidence: confidenceText(result.confidence) };
  results.replaceChildren(
    auditTable(rowsOf(result, words), words.confidence),
    h(
      'p',
      { class: 'note', dataset: { auditSentence: '' } },
      `${result.sentence[0].toUpperCase()}${result.sentence.slice(1)}.`,
    ),
  );
  const tradeoff = curve?.response.ok ? curve.response.result : null;
  plots.replaceChildren(
    result.tpr_interval && result.fpr_interval
      ? auditFigure({ result, tradeoff, observed: observedOf(result, evidence.evidence), confidence: words.confidence })
      : h('p', { class: 'note' }, 'One run gives no rates to plot: its bound is on ε alone.'),
  );
  summary(...headlineOf(result, words));
}

export { updateAudit };
