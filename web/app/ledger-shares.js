// Each release's part of the ledger's budget, for the Composition section. Tight totals (PLD,
// advanced composition) do not split into parts, so the share is taken under a composition that
// adds: zCDP, where ρ adds exactly (Bun & Steinke 2016, Lemma 2.3), so a release's share is its ρ
// over the ledger's Σρ; where a release has no zCDP bound, basic composition, where ε adds (Dwork &
// Roth 2014, Thm 3.16). Beside it, the ε the release would spend alone at the total δ (its PLD upper
// bound): a sound statement about that release by itself. The table says which share it shows.
import { h } from './dom.js';
import { formatNumber } from './format.js';
import { formulaElement } from './formula.js';
import { notesOf } from './mechanism-notes.js';
import { citeElement, guaranteeElement } from './results.js';
import { rowWords } from './ledger.js';
import { apiWords } from './api-words.js';

/** { basis: 'zcdp' | 'basic' | null, parts: [number] } from the responses of the shares' requests (composition-requests.js). */
function sharesOf(responses) {
  const zcdp = responses.filter((_, i) => i % 2 === 0);
  const basic = responses.filter((_, i) => i % 2 === 1);
  if (zcdp.every((response) => response.ok && Number.isFinite(response.result.guarantee.rho)))
    return { basis: 'zcdp', parts: zcdp.map((response) => response.result.guarantee.rho) };
  if (basic.every((response) => response.ok && Number.isFinite(response.result.guarantee.epsilon)))
    return { basis: 'basic', parts: basic.map((response) => response.result.guarantee.epsilon) };
  return { basis: null, parts: [] };
}

const kBasisWords = {
  zcdp: 'Share: the release’s ρ as a part of the ledger’s total ρ (zCDP composition adds ρ exactly).',
  basic: 'Share: the release’s ε as a part of the ledger’s total ε under basic composition (which adds ε).',
  null: 'Share: none, as not every release has a zCDP bound or an ε of its own to add.',
};

function percent(part, total) {
  const value = (100 * part) / total;
  return `${value >= 10 ? value.toFixed(0) : value.toPrecision(2)}%`;
}

/** The formula and citation of a release's mechanism (the innermost ones too, for subsampling). */
function mechanismCells(spec) {
  if (spec.type === 'guarantee') return [h('td', { class: 'formula-cell' }, ''), h('td', { class: 'citation' }, '')];
  const notes = [spec, ...(spec.mechanism ? [spec.mechanism] : [])]
    .map((one) => notesOf(one.type))
    .filter((n) => n.tex);
  return [
    h(
      'td',
      { class: 'formula-cell', dataset: { label: 'Formula' } },
      notes.map((note) => formulaElement(note.tex)),
    ),
    h(
      'td',
      { class: 'citation', dataset: { label: 'Citation' } },
      notes.flatMap((note, i) => [
        i > 0 ? '; ' : null,
        // A work without a BibTeX entry here is cited in words only (the BibTeX export lists entries).
        note.keys.length ? citeElement(note.citation, note.keys) : h('cite', {}, note.citation),
      ]),
    ),
  ];
}

/**
 * The ledger's table: each release, how many times, the share, the ε alone (filled in later by
 * setAlone), its formula and citation. `responses`: those of shareRequests.
 */
export function ledgerTable({ catalog, rows, responses, delta }) {
  const { basis, parts } = sharesOf(responses);
  const total = parts.reduce((a, b) => a + b, 0);
  const body = rows.map((row, i) =>
    h(
      'tr',
      { dataset: { ledgerShare: String(i) } },
      h('th', { scope: 'row' }, rowWords(catalog, row)),
      h(
        'td',
        { class: 'share', dataset: { label: 'Share' } },
        basis && total > 0
          ? h(
              'span',
              { dataset: { share: String(parts[i] / total) } },
              percent(parts[i], total),
              h('span', { class: 'note' }, ` (${basis === 'zcdp' ? 'ρ' : 'ε'} = ${formatNumber(parts[i])})`),
            )
          : '—',
      ),
      h(
        'td',
        { class: 'alone', dataset: { label: `ε alone at δ = ${formatNumber(delta, 'down')}` } },
        h('span', { class: 'pending' }, 'computing…'),
      ),
      ...mechanismCells(row.spec),
    ),
  );
  const table = h(
    'table',
    { class: 'methods ledger-shares' },
    h(
      'caption',
      {},
      'The ledger: each release’s part of the budget. ',
      h('span', { class: 'note' }, kBasisWords[basis]),
    ),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Release'),
        h('th', { scope: 'col' }, 'Share'),
        h('th', { scope: 'col' }, `ε alone at δ = ${formatNumber(delta, 'down')}`),
        h('th', { scope: 'col' }, 'Formula'),
        h('th', { scope: 'col' }, 'Citation'),
      ),
    ),
    h('tbody', {}, body),
  );
  return h('div', { class: 'table-wrap' }, table);
}

// A release's own request (its "alone" column) holds it as its only item.
const kAloneTerms = { 'items.0': 'this release', 'items.0.mechanism': 'this release', 'items.0.count': 'its count' };

/** Fills in the ε release `index` spends alone (its PLD `response`), or why there is none. */
export function setAlone(element, index, response) {
  const cell = element.querySelector(`tr[data-ledger-share="${index}"] .alone`);
  if (!cell) return;
  if (!response) {
    if (cell.querySelector('.pending')) cell.replaceChildren(h('span', { class: 'cancelled' }, 'cancelled'));
    return;
  }
  if (response.ok) cell.replaceChildren(guaranteeElement(response.result.guarantee, { deltaIsGiven: true }));
  else cell.replaceChildren(h('span', { class: 'not-applicable' }, apiWords(response.error.message, kAloneTerms)));
}
