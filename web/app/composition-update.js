// Composition on the page: the ledger of releases composed by every closed-form method and by the
// numeric PLD method in one table, the tightest marked; each release's part of the budget
// (ledger-shares.js); ε against the number of compositions (for a ledger of one release); and the
// privacy profile δ(ε) of every method side by side. The requests are composition-requests.js
// (shared with <dp-calculator>). Closed forms answer at once; the PLD runs in the numeric worker
// with a progress bar and can be cancelled, by its button or by any new input (runNumeric).
import { h, readNumber, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { guaranteeElement, inputsOf, methodRow, methodTable } from './results.js';
import { answerAll, ofRole } from './ask.js';
import { askExplained } from './explained.js';
import { formatNumber } from './format.js';
import { plotRange } from './range.js';
import { pldNote, profileEpsilons, renderPld, runNumeric } from './numeric.js';
import { catalogOf } from './mechanism-picker.js';
import { rowWords } from './ledger.js';
import { ledgerTable, setAlone } from './ledger-shares.js';
import { moreDigits } from './more-digits.js';
import {
  kStepsRange,
  kindOf,
  ledgerRowsOf,
  pldFollowUps,
  profileItem,
  requests,
  solveIndexOf,
} from './composition-requests.js';
import { setRelation, showLedger } from './composition-ledger.js';
import { relationRefusal, isRelationError } from './composition-relation.js';
import {
  closedFormProfile,
  pldProfile,
  pldStepsPoints,
  profileFigure,
  stepsFigure,
  stepsPoints,
} from './composition-figures.js';
import {
  compositionHeadline,
  kPldLabel,
  ledgerSubject,
  ledgerWords,
  markTightest,
  notApplicableText,
  tightest,
} from './composition-headline.js';
import { solveComposition } from './composition-solve.js';
import { apiWords } from './api-words.js';

const kNoPldCurve = 'PLD curve: drawn for a single release (the PLD row bounds this ledger).';

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

/** The inputs behind a row's request fields: its own (named) and the ledger editor's. */
function fieldsOf(form, item, releaseFields, { zcdp = false } = {}) {
  // zCDP composition does not apply to items with δ₀ > 0; that is said in its row, while δ₀ itself
  // stays valid for every other method.
  const releases = zcdp
    ? Object.fromEntries(Object.entries(releaseFields).filter(([path]) => !path.endsWith('.guarantee.delta')))
    : releaseFields;
  return inputsOf(form, { ...item.fields, ...releases }, item.request);
}

async function updateComposition(section) {
  const { calculator, form, inputs, isCurrent, results, plots, errors, summary } = section;
  const catalog = await catalogOf(calculator);
  if (!isCurrent()) return;
  const ledger = ledgerRowsOf(inputs);
  const solving = inputs.question === 'most_releases';
  // Read as a number, so that a text that is not one is explained as such beside it.
  if (solving) readNumber(form.elements.solve_release);
  const index = solving ? solveIndexOf(inputs, ledger.length) : null;
  const releaseFields = showLedger(form, catalog, ledger, index);
  const context = { catalog, ledger, kind: kindOf(ledger), releaseFields };
  if (!solving) return composeLedger(section, context);
  if (index === null) {
    errors.set(form.elements.solve_release, `Give the number of a release in the ledger, from 1 to ${ledger.length}.`);
    results.replaceChildren();
    plots.replaceChildren();
    summary('No answer: check the marked fields.');
    return;
  }
  const subject = rowWords(catalog, ledger[index]).replace(/^\S+ × /, '');
  return solveComposition(section, { ...context, items: requests(inputs, { catalog }), subject });
}

/** The table of the closed forms and the PLD row (computing), the shares, and the figures' holders. */
function compositionView(section, context, answered) {
  const { calculator, form, inputs, errors, signal } = section;
  const { catalog, ledger, kind, releaseFields } = context;
  const pldItem = answered.pld;
  const pldRow = {
    id: 'pld',
    label: kPldLabel,
    formula: formulas.pld,
    fields: fieldsOf(form, pldItem, releaseFields),
    render: renderPld,
    // Its small print, and "More digits": the same composition for a bracket ten times narrower.
    note: (result) =>
      h(
        'span',
        {},
        pldNote(result),
        typeof result.epsilon_upper === 'number' &&
          moreDigits({
            calculator,
            request: withoutDiscretization(pldItem.request),
            bracket: { lower: result.epsilon_lower, upper: result.epsilon_upper },
            bracketOf: (tighter) => ({
              lower: tighter.epsilon_lower,
              upper: tighter.epsilon_upper,
              note: tighter.note,
            }),
            signal,
            id: 'composition-pld',
          }),
      ),
  };
  const rows = answered.rows.map((item) => ({
    id: item.id,
    label: item.label,
    formula: formulas[item.method.formula],
    response: item.response,
    render: renderResult,
    note: noteOf,
    notApplicable: () => notApplicableText(kind, item.id),
    fields: fieldsOf(form, item, releaseFields, { zcdp: item.id === 'zcdp' }),
  }));
  const delta = pldItem.request.delta;
  const table = methodTable({
    caption: `${ledgerWords(catalog, ledger)}; total δ target ${inputs.delta.trim()}`,
    rows,
    errors,
  });
  const view = { rows, pldRow, table, delta, what: ledgerSubject(catalog, ledger, kind), single: ledger.length === 1 };
  view.pldRowElement = methodRow(
    { ...pldRow, status: 'running', pending: h('span', { class: 'pending' }, 'computing…') },
    errors,
  );
  table.querySelector('tbody').append(view.pldRowElement);
  markTightest(table, tightest(rows, null, delta));
  view.shares = ledgerTable({ catalog, rows: ledger, responses: answered.shares.map((item) => item.response), delta });
  view.points = stepsPoints(answered.steps);
  view.closedProfile = closedFormProfile(answered.profile);
  view.stepsHolder = h(
    'div',
    { class: 'chart-holder' },
    stepsFigure(view.points, 'PLD curve: computing…', view.single),
  );
  view.profileHolder = h('div', { class: 'chart-holder' }, profileFigure(view.closedProfile, 'PLD curves: computing…'));
  return view;
}

/** The PLD request "More digits" asks again at a finer accuracy of its own. */
function withoutDiscretization(request) {
  const plain = { ...request };
  delete plain.discretization;
  return plain;
}

/** The total by every method: the closed forms at once, then the PLD and what depends on it. */
async function composeLedger(section, context) {
  const { calculator, form, inputs, isCurrent, results, plots, errors, signal, summary } = section;
  const items = requests(inputs, { catalog: context.catalog });
  plotRange(form.elements.kmax, errors, kStepsRange);
  const rows = ofRole(items, 'row').filter((item) => item.id !== 'pld');
  // Closed forms only: they take microseconds, and aborting one would restart the fast worker.
  const [answeredRows, steps, profile, shares] = await Promise.all(
    [rows, ofRole(items, 'plot-steps'), ofRole(items, 'plot-profile'), ofRole(items, 'share')].map((group) =>
      answerAll(calculator, group),
    ),
  );
  if (!isCurrent()) return;
  // Every method refused for the neighbouring relation: one release has no bound under it.
  if (answeredRows.length && answeredRows.every((row) => isRelationError(row.response)))
    return refusedRelation(section, context, answeredRows[0]);
  const pld = items.find((item) => item.id === 'pld');
  const view = compositionView(section, context, { rows: answeredRows, pld, steps, profile, shares });
  const replacePldRow = (row) => {
    const next = methodRow({ ...view.pldRow, ...row }, errors);
    view.pldRowElement.replaceWith(next);
    view.pldRowElement = next;
  };
  view.replacePldRow = replacePldRow;
  const numeric = {
    calculator,
    signal,
    isCurrent,
    id: 'composition-pld',
    label: 'PLD composition',
    cancelled: 'PLD composition cancelled. Change any input to compute again.',
    onCancel: () => cancelled(section, context, view),
  };
  await runNumeric(numeric, async ({ status, run }) => {
    results.replaceChildren(status.element, view.table, view.shares);
    summary(...compositionHeadline(view.rows, null, view, { pending: true }));
    // Closed-form errors are marked now, not once the numeric work ends.
    showFieldErrors(form, errors);
    plots.replaceChildren(view.stepsHolder, view.profileHolder);
    await numericStages(section, context, view, { status, run, pld });
  });
}

/**
 * The numeric part, in four stages of the progress bar: the PLD row (then its attacker panel, which
 * reads the PLDs this answer kept), each release alone, the PLD's privacy profile, its ε against k.
 */
async function numericStages(section, context, view, { status, run, pld }) {
  const { inputs, isCurrent, summary, explain } = section;
  const stage =
    (first, parts = 1, i = 0) =>
    (fraction) =>
      (first + (i + fraction) / parts) / 4;
  const pldResponse = await askExplained((request) => run(request, stage(0)), pld.request);
  if (!isCurrent()) return;
  view.replacePldRow({ response: pldResponse, status: 'done' });
  markTightest(view.table, tightest(view.rows, pldResponse.ok ? pldResponse.result : null, view.delta));
  if (pldResponse.ok) explain({ of: pld.request, response: pldResponse });
  const followUps = pldFollowUps(inputs, { catalog: context.catalog });
  const alone = ofRole(followUps, 'alone');
  if (view.single) setAlone(view.shares, 0, pldResponse);
  for (const [i, item] of alone.entries()) {
    const response = await run(item.request, stage(1, alone.length, i));
    if (!isCurrent()) return;
    setAlone(view.shares, item.index, response);
  }
  if (!pldResponse.ok) {
    status.finish('error', 'PLD composition: see its row.');
    summary(...compositionHeadline(view.rows, null, view));
    view.stepsHolder.replaceChildren(
      stepsFigure(view.points, 'PLD curve: none, see the PLD row for why.', view.single),
    );
    view.profileHolder.replaceChildren(profileFigure(view.closedProfile, 'PLD curves: none, see the PLD row for why.'));
    return;
  }
  summary(...compositionHeadline(view.rows, pldResponse.result, view));
  if (typeof pldResponse.result.epsilon_upper !== 'number') {
    // No finite ε (an item without noise): nothing to plot.
    const none = 'PLD curves: none, the composition has no finite ε (no meaningful guarantee).';
    view.stepsHolder.replaceChildren(stepsFigure(view.points, none, view.single));
    view.profileHolder.replaceChildren(profileFigure(view.closedProfile, none));
    status.finish('done', 'PLD composition: done.');
    return;
  }
  const epsilons = profileEpsilons(
    pldResponse.result.epsilon_upper,
    view.closedProfile.map((point) => point.x),
  );
  const profileResponse = await run(profileItem(inputs, { catalog: context.catalog }, epsilons).request, stage(2));
  if (!isCurrent()) return;
  view.profileHolder.replaceChildren(
    profileResponse.ok
      ? profileFigure([...view.closedProfile, ...pldProfile(profileResponse.result)], '')
      : profileFigure(view.closedProfile, `PLD curves: ${apiWords(profileResponse.error.message)}`),
  );
  const curve = ofRole(followUps, 'pld-steps');
  const answered = [];
  for (const [i, item] of curve.entries()) {
    answered.push({ ...item, response: await run(item.request, stage(3, curve.length, i)) });
    if (!isCurrent()) return;
  }
  const points = [...view.points, ...pldStepsPoints(answered)];
  view.stepsHolder.replaceChildren(stepsFigure(points, view.single ? '' : kNoPldCurve, view.single));
  if (profileResponse.ok) status.finish('done', 'PLD composition: done.');
  else status.finish('error', `PLD profile failed: ${apiWords(profileResponse.error.message)}`);
}

/**
 * The ledger refused under the relation chosen (composition-relation.js): the relation input is
 * marked with why, and, where another of its choices suits every release, a button switches to it
 * (the section then computes again).
 */
async function refusedRelation(section, context, refused) {
  const { calculator, form, isCurrent, results, plots, errors, summary } = section;
  const input = form.elements.relation;
  const refusal = await relationRefusal({ calculator, catalog: context.catalog, input, refused });
  if (!isCurrent()) return;
  errors.set(input, refusal.field);
  const button = refusal.relation
    ? h(
        'button',
        { type: 'button', class: 'small', dataset: { relationSwitch: refusal.relation } },
        `Use “${refusal.words}” for every release`,
      )
    : null;
  button?.addEventListener('click', () => setRelation(form, context.catalog.schema, refusal.relation));
  results.replaceChildren(...(button ? [h('p', { dataset: { relationRefused: '' } }, button)] : []));
  plots.replaceChildren();
  summary(refusal.headline);
}

/** Cancelled (its button, or new inputs): what was still computing says so. */
function cancelled(section, context, view) {
  context.ledger.forEach((_, i) => setAlone(view.shares, i, null));
  if (view.pldRowElement.dataset.status === 'running') {
    view.replacePldRow({ status: 'cancelled', pending: h('span', { class: 'cancelled' }, 'cancelled') });
    section.summary(...compositionHeadline(view.rows, null, view));
  }
  if (view.stepsHolder.querySelector('[data-steps-status]'))
    view.stepsHolder.replaceChildren(stepsFigure(view.points, 'PLD curve: cancelled.', view.single));
  if (view.profileHolder.querySelector('[data-profile-status]'))
    view.profileHolder.replaceChildren(profileFigure(view.closedProfile, 'PLD curves: cancelled.'));
}

export { updateComposition };
