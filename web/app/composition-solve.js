// The Composition section's "most releases for a target" question (op 'compose' with unknown
// 'count'): how many times one release of the ledger can run, the others as given, while the total
// stays within the target (ε, δ). Every method answers by bisection on its own sound bound (the
// core evaluates the answer and one more release); the largest answer among the methods that
// apply to all records is shown in large type (solved.js renders it), every method's in a table.
// All of it runs in the numeric worker, with progress and Cancel.
import { h, showFieldErrors } from './dom.js';
import { formulas } from './formula.js';
import { inputsOf, methodTable } from './results.js';
import { boundText, citeSentence, methodWords, paperGuarantee } from './headline.js';
import { runNumeric } from './numeric.js';
import { boundElement, solvedElements, solvedValueText, valueText } from './solved.js';
import { notApplicableText } from './composition-headline.js';

const kFormulas = {
  solved: String.raw`n^\star = \max\{n : \varepsilon(n) \le \varepsilon_{\text{target}},\ \delta(n) \le \delta_{\text{target}}\}`,
  beyond: String.raw`\varepsilon(n^\star + 1) > \varepsilon_{\text{target}}\ \text{or}\ \delta(n^\star + 1) > \delta_{\text{target}}`,
};

// The inputs behind the request fields of every method's row (the ledger's own come from its editor).
const kFields = {
  discretization: 'pld_step',
  'discretization.interval': 'pld_step',
  target: 'target_epsilon',
  'target.epsilon': 'target_epsilon',
  'target.delta': 'delta',
  items: 'solve_release',
  unknown: 'question',
};

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

/** A method's row: the most releases, and the bound at it and one release beyond. */
function rowOf(item, response, { fields, kind }) {
  return {
    id: item.id,
    label: item.label,
    formula: item.method ? formulas[item.method.formula] : formulas.pld,
    response,
    pending: h('span', { class: 'pending' }, 'searching…'),
    status: response ? 'done' : 'running',
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
    notApplicable: () => notApplicableText(kind, item.id),
    // A method that cannot meet the target even once says so in its row; the target itself is
    // valid (other methods may meet it), so its input is not marked.
    fields: response?.error?.code === 'numeric' ? {} : fields,
  };
}

/**
 * Renders the answers to "how many times can release `index` run" into the section's results.
 * `section` is what the section's update receives; `question`: the ledger's `items` (the requests of
 * composition-requests.js: every method's and the PLD's, all numeric, asked one after the other),
 * `kind` of ledger, the editor's `releaseFields`, and `subject`, the release in words.
 */
export async function solveComposition(section, { items, kind, releaseFields, subject, ledger }) {
  const { calculator, form, results, plots, errors, signal, summary, isCurrent } = section;
  const fields = inputsOf(form, { ...kFields, ...releaseFields }, items.at(-1).request);
  const responses = [];
  const numeric = { calculator, signal, isCurrent, id: 'composition-solve', label: 'Searching' };
  await runNumeric(numeric, async ({ status, run }) => {
    const show = () => {
      const rows = items.map((item, i) => rowOf(item, responses[i], { fields, kind }));
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
    for (const [i, item] of items.entries()) {
      responses.push(await run(item.request, (fraction) => (i + fraction) / items.length));
      if (!isCurrent()) return;
      status.progress((i + 1) / items.length);
      const best = show();
      summary(...headlineOf(best, { subject, others: ledger.length > 1, pending: i < items.length - 1 }));
    }
    status.finish('done', 'Done.');
  });
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
  return [text, { cite, result }];
}
