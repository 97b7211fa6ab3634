// The Composition section's words: the headline (for pure mechanisms the pure total first, by basic
// composition, then the smallest ε at the person's target δ among the methods that apply to all
// records, PLD included once it has answered), the tightest row's mark, the ledger in words, and why
// a closed form does not apply.
import { h } from './dom.js';
import { parseNumber } from './format.js';
import {
  boundText,
  citeSentence,
  epsilonBracket,
  givenNumber,
  methodWords,
  paperGuarantee,
  proof,
} from './headline.js';
import { approxOf } from './compose-methods.js';
import { rowWords } from './ledger.js';

export const kPldLabel = 'PLD (numeric, tight)';

/** The ledger in words: "100 × 0.1-DP", "12 × Discrete Gaussian mechanism (σ = 5, Δ = 1); 1 × …". */
export const ledgerWords = (catalog, rows) => rows.map((row) => rowWords(catalog, row)).join('; ');

/** What the ledger is, for the headline: "100 mechanisms, each 0.1-DP", or the ledger in words. */
export function ledgerSubject(catalog, rows, kind) {
  if (kind !== 'guarantee') return ledgerWords(catalog, rows);
  const { count, spec } = rows[0];
  const value = (text) => {
    const number = parseNumber(text);
    return Number.isNaN(number) ? text.trim() : givenNumber(number);
  };
  const pure = parseNumber(spec.delta) === 0;
  return `${count} mechanisms, each ${pure ? `${value(spec.epsilon)}-DP` : `(${value(spec.epsilon)}, ${value(spec.delta)})-DP`}`;
}

/**
 * The tightest answer at the person's δ: the smallest ε among the methods that apply to all records
 * (not parallel composition) and whose δ stays within the target, PLD included once it has answered.
 * { id, label, result, guarantee } or null.
 */
export function tightest(rows, pld, delta) {
  const candidates = rows
    .filter((row) => row.response.ok && !row.response.result.vacuous && row.id !== 'parallel')
    .map((row) => ({
      id: row.id,
      label: row.label,
      result: row.response.result,
      guarantee: approxOf(row.response.result),
    }))
    .filter(({ guarantee }) => guarantee.type !== 'pure' && guarantee.delta > 0 && guarantee.delta <= delta);
  if (pld && !pld.vacuous) candidates.push({ id: 'pld', label: kPldLabel, result: pld, guarantee: pld.guarantee });
  const finite = candidates.filter((candidate) => Number.isFinite(candidate.guarantee.epsilon));
  return finite.length ? finite.reduce((a, b) => (b.guarantee.epsilon < a.guarantee.epsilon ? b : a)) : null;
}

/** Marks the row of the tightest method in `table` (and only it). */
export function markTightest(table, best) {
  for (const row of table.querySelectorAll('tr[data-best]')) {
    delete row.dataset.best;
    row.querySelector('.best-note')?.remove();
  }
  const row = best && table.querySelector(`tr[data-row="${best.id}"]`);
  if (!row) return;
  row.dataset.best = 'true';
  row.querySelector('th').append(h('span', { class: 'best-note' }, 'tightest at this δ'));
}

/**
 * The headline: for pure mechanisms the pure total first (basic composition), then the tightest
 * answer at the person's δ (`pld`: the PLD's result once it has answered; `pending` while it
 * computes). Returns [text, { cite }].
 */
export function compositionHeadline(rows, pld, { what, delta }, { pending = false } = {}) {
  const parts = [];
  const cites = [];
  const basic = rows.find((row) => row.id === 'basic').response;
  if (basic.ok && basic.result.guarantee.type === 'pure' && !basic.result.vacuous) {
    parts.push(`pure ${boundText({ type: 'pure', epsilon: basic.result.guarantee.epsilon })}, by basic composition`);
    cites.push({ result: basic.result, guarantee: { type: 'pure', epsilon: basic.result.guarantee.epsilon } });
  }
  const best = tightest(rows, pld, delta);
  if (best) {
    parts.push(`${boundText(best.guarantee, { deltaIsGiven: true })}, by ${methodWords(best.label)}`);
    cites.push(best);
  }
  // No finite ε at the δ (an item without noise): the PLD says there is no guarantee.
  if (!best && pld?.vacuous && cites.length === 0) {
    return [`${what}: no meaningful guarantee (no finite ε at this δ), by PLD.`];
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
  // The answer's kind: every method here is a proven upper bound; the PLD's comes with its bracket.
  const numeric = best?.id === 'pld';
  const kind = proof.proven(
    numeric ? 'Proven upper bound, numeric (PLD) with its error bracket' : 'Proven upper bound',
  );
  const bracket = numeric ? epsilonBracket(best.result.epsilon_lower, best.result.epsilon_upper) : undefined;
  return [`${what}: ${parts.join('; ')}.`, { cite, result: first.result, proof: kind, bracket }];
}

/**
 * Why a closed form does not answer for this ledger (the API's `unsupported` errors), in words that
 * point to the rows that do answer.
 */
export function notApplicableText(kind, methodId) {
  if (kind === 'subsampled_gaussian') {
    return 'Does not apply: no closed form composes a subsampled mechanism tightly. The PLD row below gives its bound.';
  }
  if (kind === 'gaussian') {
    return (
      'Does not apply: this method composes a pure ε per mechanism, and the Gaussian mechanism has none (its ε depends on δ). ' +
      'The zCDP and PLD rows compose it.'
    );
  }
  if (methodId === 'optimal' && kind === 'ledger') {
    return 'Does not apply: optimal composition is exact for identical releases only. The PLD row composes different ones tightly.';
  }
  if (methodId === 'rdp') {
    return 'Does not apply: a release here has no Rényi DP curve in the calculator (it composes mechanisms, not guarantees). The PLD row composes it.';
  }
  if (methodId === 'zcdp') {
    return 'Does not apply: a release here has no zCDP bound of its own (an (ε₀, δ₀) guarantee with δ₀ > 0, or subsampling). The PLD row composes it.';
  }
  if (kind === 'ledger' || kind === 'mechanism') {
    return 'Does not apply: this method needs an (ε, δ) guarantee of each release, and a release here has none in closed form. The PLD row composes it.';
  }
  return 'Does not apply to these mechanisms.';
}
