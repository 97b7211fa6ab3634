// The Composition section's "most releases for a target" question (op 'compose' with unknown
// 'count'): how many times one release of the ledger can run, the others as given, while the total
// stays within the target (ε, δ). Every method answers by bisection on its own sound bound (the
// core evaluates the answer and one more release); the largest answer among the methods that
// apply to all records is shown in large type (solved.js renders it), every method's in a table.
// All of it runs in the numeric worker, with progress and Cancel.
import { h, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { methodTable, settleUnlessAborted } from './results.js';
import { boundText, citeSentence, methodWords, paperGuarantee } from './headline.js';
import { numericStatus } from './numeric.js';
import { boundElement, solvedElements, solvedValueText, valueText } from './solved.js';

const kFormulas = {
  solved: String.raw`n^\star = \max\{n : \varepsilon(n) \le \varepsilon_{\text{target}},\ \delta(n) \le \delta_{\text{target}}\}`,
  beyond: String.raw`\varepsilon(n^\star + 1) > \varepsilon_{\text{target}}\ \text{or}\ \delta(n^\star + 1) > \delta_{\text{target}}`,
};

const kPld = { id: 'pld', label: 'PLD (numeric, tight)', formula: formulas.pld };

/** A method's closed-form request turned into its "most releases" request (the target's δ is the total δ). */
function solveRequest(method, items, target) {
  const request = { ...method.request(items, target.delta), unknown: 'count', target };
  delete request.delta;
  return request;
}

/**
 * The largest answer among the methods that bound every record's loss (not parallel composition);
 * of equal answers, the one with the smallest ε at it.
 */
function bestOf(rows) {
  let best = null;
  const better = (a, b) => a.count > b.count || (a.count === b.count && a.guarantee.epsilon < b.guarantee.epsilon);
  for (const row of rows) {
    if (row.id === 'parallel' || !row.response?.ok) continue;
    if (!best || better(row.response.result, best.response.result)) best = row;
  }
  return best;
}

/**
 * Renders the answers to "how many times can release `index` run" into the section's results.
 * The question: `methods` are the section's closed-form methods ({ id, label, formula,
 * request(items, delta) }), `items` the ledger's request items, `target` { epsilon, delta }, `ask`
 * adds the section's common fields (the relation), `fields` maps request paths to inputs, `subject`
 * is the release in words. `section` is what the section's update receives (calculator, form,
 * results, plots, errors, signal, summary, isCurrent).
 */
export async function solveComposition(
  { methods, items, index, target, ask, discretization, fields, notApplicable, subject },
  { calculator, form, results, plots, errors, signal, summary, isCurrent },
) {
  const solveItems = items.map((item) => ({ ...item }));
  delete solveItems[index].count;
  const numeric = new AbortController();
  const abortNumeric = () => numeric.abort();
  signal.addEventListener('abort', abortNumeric, { once: true });
  const status = numericStatus({ id: 'composition-solve', label: 'Searching', onCancel: abortNumeric });
  const all = [...methods, kPld];
  const requests = all.map((method) =>
    method === kPld
      ? { op: 'compose', method: 'pld', items: solveItems, unknown: 'count', target, ...discretization }
      : solveRequest(method, solveItems, target),
  );
  const responses = [];
  const show = () => {
    const rows = all.map((method, i) => ({
      id: method.id,
      label: method.label,
      formula: method.formula,
      response: responses[i],
      pending: h('span', { class: 'pending' }, 'searching…'),
      status: responses[i] ? 'done' : 'running',
      render: (result) =>
        h('span', { class: 'most-releases', dataset: { count: String(result.count) } }, solvedValueText(result)),
      note: (result) =>
        h(
          'span',
          {},
          `at ${valueText('count', result.count)}: `,
          boundElement(result.guarantee),
          result.beyond?.guarantee
            ? [
                `; at ${valueText('count', result.beyond.count)}: `,
                boundElement(result.beyond.guarantee, { vacuous: result.beyond.vacuous }),
              ]
            : '',
        ),
      notApplicable: () => notApplicable(method.id),
      // A method that cannot meet the target even once says so in its row; the target itself is
      // valid (other methods may meet it), so its input is not marked.
      fields: responses[i]?.error?.code === 'numeric' ? {} : fields,
    }));
    const best = bestOf(rows);
    const table = methodTable({ caption: `The most releases of ${subject} by every method`, rows, errors });
    const answer = best
      ? solvedElements(best.response.result, {
          fields,
          errors,
          answer: 'composition',
          formulas: kFormulas,
          label: `Most releases: ${best.label}`,
        })
      : [];
    results.replaceChildren(...answer, status.element, table);
    plots.replaceChildren();
    showFieldErrors(form, errors);
    return best;
  };
  show();
  try {
    for (const [i, request] of requests.entries()) {
      const onProgress = (fraction) => status.progress((i + fraction) / requests.length);
      responses.push(await settleUnlessAborted(calculator.run(ask(request), { signal: numeric.signal, onProgress })));
      if (!isCurrent()) return;
      onProgress(1);
      const best = show();
      summary(...headlineOf(best, { subject, others: items.length > 1, pending: i < requests.length - 1 }));
    }
    status.finish('done', 'Done.');
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (isCurrent()) status.finish('cancelled', 'Cancelled. Change any input to compute again.');
  } finally {
    signal.removeEventListener('abort', abortNumeric);
  }
}

/**
 * The headline ("At most 720 releases of 0.01-DP stay within ε ≤ 1 at δ = 10⁻⁵, by optimal
 * composition (exact).") and its sentence for a paper: [text, { cite }].
 */
function headlineOf(best, { subject, others, pending }) {
  const still = pending ? ' (the PLD is searching…)' : '';
  if (!best) return [pending ? 'Searching…' : 'No method answers for these inputs: see why in each row.'];
  const result = best.response.result;
  const rest = others ? ', with the other releases as given,' : '';
  const text =
    `${solvedValueText(result)} of ${subject}${rest} stay within ${boundText(result.target, { deltaIsGiven: true })}, ` +
    `by ${methodWords(best.label)}${still}.`;
  // For a paper: the bound at the answer itself (it meets the target).
  const cite = citeSentence({
    subject: `${valueText('count', result.count)} of ${subject}${others ? ', with the other releases,' : ''}`,
    verb: others ? 'satisfy' : 'together satisfy',
    guarantee: paperGuarantee(result.guarantee, { deltaIsGiven: result.guarantee.delta > 0 }),
    method: methodWords(result.method),
    citation: result.citation,
  });
  return [text, { cite }];
}
