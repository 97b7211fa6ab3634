// The ledger of releases of the Composition section: one row per kind of release (a mechanism of the
// core's catalog, or an (ε, δ)-DP guarantee), each with how many times it runs. Rows are added and
// removed here; the ledger is kept as text in the section's `ledger` input, so that links, the
// visit's memory and the back button carry it like any other input. Its text is the request's items
// with the numbers as typed:
//   [{"count":"12","mechanism":{"type":"discrete_gaussian","sigma":"5","sensitivity":"1"}},
//    {"count":"100","guarantee":{"epsilon":"0.1","delta":"0"}}]
import { h, readNumber } from './dom.js';
import { parseNumber } from './format.js';
import { freshSpec, isSpec, mechanismPicker, requestOf, specWords } from './mechanism-picker.js';

export const kMaxRows = 50;
// A ledger of kMaxRows rows of nested mechanisms fits; the router refuses longer link values.
export const kMaxLedgerLength = 8000;

// The one choice of the ledger that is not a mechanism: a release known only by its guarantee.
const kGuaranteeFields = [
  { name: 'epsilon', label: 'Privacy loss', symbol: 'ε₀', value: '0.1' },
  { name: 'delta', label: 'Failure probability', symbol: 'δ₀', value: '0', hint: '0: a pure ε₀-DP release' },
];
const kGuaranteeType = ['guarantee', '(ε₀, δ₀)-DP guarantee', kGuaranteeFields];

const isText = (value) => typeof value === 'string';

/** The rows of ledger text `text` ([{ count, spec }]), or { error } (a sentence) when it is not one. */
export function parseLedger(text) {
  let rows;
  try {
    rows = JSON.parse(text);
  } catch {
    return { error: 'the ledger is not readable' };
  }
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > kMaxRows)
    return { error: `the ledger must list 1 to ${kMaxRows} releases` };
  const parsed = [];
  for (const row of rows) {
    const guarantee = row?.guarantee;
    if (!isText(row?.count)) return { error: 'a release of the ledger has no count' };
    if (guarantee && isText(guarantee.epsilon) && isText(guarantee.delta)) {
      parsed.push({
        count: row.count,
        spec: { type: 'guarantee', epsilon: guarantee.epsilon, delta: guarantee.delta },
      });
    } else if (isSpec(row.mechanism)) {
      parsed.push({ count: row.count, spec: row.mechanism });
    } else {
      return { error: 'a release of the ledger is neither a mechanism nor a guarantee' };
    }
  }
  return { rows: parsed };
}

/** The ledger text of `rows`. */
export function ledgerText(rows) {
  return JSON.stringify(
    rows.map(({ count, spec }) => {
      if (spec.type !== 'guarantee') return { count, mechanism: spec };
      return { count, guarantee: { epsilon: spec.epsilon, delta: spec.delta } };
    }),
  );
}

/** The item a row asks for: a pure item when δ₀ is exactly 0 (so zCDP composition applies). */
function guaranteeItem(epsilon, delta) {
  return { guarantee: delta === 0 ? { type: 'pure', epsilon } : { type: 'approx', epsilon, delta } };
}

/** A row in words, for captions and headlines: "12 × Discrete Gaussian mechanism (σ = 5, Δ = 1)". */
export function rowWords(catalog, { count, spec }) {
  if (spec.type !== 'guarantee') return `${count} × ${specWords(catalog, spec)}`;
  return parseNumber(spec.delta) === 0
    ? `${count} × ${spec.epsilon}-DP`
    : `${count} × (${spec.epsilon}, ${spec.delta})-DP`;
}

/**
 * The editor's row of release `row` ({ count, spec }) at `index`: its picker, its count and its Remove
 * button (`onRemove()`); `onChange()` runs after every edit. Returns { element, picker, count }.
 */
function releaseRow({ row, index, idPrefix, catalog, onChange, onRemove }) {
  const number = index + 1;
  const id = `${idPrefix}-${number}`;
  const count = h('input', {
    id: `${id}-count`,
    type: 'text',
    inputmode: 'numeric',
    value: row.count,
    autocomplete: 'off',
    spellcheck: 'false',
    dataset: { term: 'times' },
  });
  const picker = mechanismPicker({
    id,
    catalog,
    spec: row.spec,
    label: `Release ${number}`,
    extraTypes: [kGuaranteeType],
    onChange,
  });
  const remove = h(
    'button',
    { type: 'button', class: 'secondary remove', dataset: { ledgerRemove: String(index) } },
    'Remove',
    h('span', { class: 'visually-hidden' }, ` release ${number}`),
  );
  remove.addEventListener('click', onRemove);
  count.addEventListener('input', onChange);
  const element = h(
    'li',
    { class: 'ledger-row', dataset: { ledgerRow: String(index) } },
    picker.element,
    h(
      'div',
      { class: 'ledger-row-end' },
      h('div', { class: 'field' }, h('label', { for: count.id }, 'How many times'), count),
      remove,
    ),
  );
  return { element, picker, count };
}

/** The editor's items: each row's request item (numbers read from its inputs) and the inputs of its fields. */
function releaseItems(catalog, pickers) {
  return pickers.map(({ picker, count }, i) => {
    const spec = picker.spec();
    const path = `items.${i}`;
    const countField = { [`${path}.count`]: count };
    if (spec.type === 'guarantee') {
      const { inputs } = picker;
      return {
        item: {
          ...guaranteeItem(readNumber(inputs.get('epsilon')), readNumber(inputs.get('delta'))),
          count: readNumber(count),
        },
        fields: {
          ...countField,
          [`${path}.guarantee.epsilon`]: inputs.get('epsilon'),
          [`${path}.guarantee.delta`]: inputs.get('delta'),
        },
      };
    }
    const { request, fields } = requestOf(catalog, spec, `${path}.mechanism`, picker.inputs);
    return { item: { mechanism: request, count: readNumber(count) }, fields: { ...countField, ...fields } };
  });
}

/**
 * The ledger's editor in `host` (element ids start with `idPrefix`): `onChange(text)` gets the ledger
 * text after every edit; `example` ({ label, rows(), after?() }) adds a button that shows its rows
 * (and then calls `after`). Returns
 * { show(rows), items(), rows() }:
 *   show(rows)  renders `rows` (replacing what is shown)
 *   items()     [{ item, fields }]: each row's request item (numbers read from the inputs) and, by
 *               request path below "items.<i>", the input to mark an error on
 */
export function ledgerEditor({ host, idPrefix, catalog, onChange, example }) {
  let pickers = [];
  const list = h('ol', { class: 'ledger-rows', 'aria-label': 'Releases' });
  const add = h('button', { type: 'button', class: 'secondary', dataset: { ledgerAdd: '' } }, 'Add a release');
  const buttons = h('div', { class: 'ledger-actions' }, add);
  if (example) {
    const button = h('button', { type: 'button', class: 'secondary', dataset: { ledgerExample: '' } }, example.label);
    button.addEventListener('click', () => {
      show(example.rows());
      changed();
      example.after?.();
    });
    buttons.append(h('span', { class: 'preset-label' }, 'Example'), button);
  }
  host.replaceChildren(list, buttons);

  const current = () => pickers.map(({ picker, count }) => ({ count: count.value, spec: picker.spec() }));
  const changed = () => onChange(ledgerText(current()));

  function show(rows) {
    const remove = (index) => {
      const rest = current();
      rest.splice(index, 1);
      show(rest);
      changed();
      (list.querySelectorAll('[data-ledger-remove]')[Math.min(index, rest.length - 1)] ?? add).focus();
    };
    pickers = rows.map((row, index) =>
      releaseRow({ row, index, idPrefix, catalog, onChange: changed, onRemove: () => remove(index) }),
    );
    list.replaceChildren(...pickers.map(({ element }) => element));
    // One release stays: the ledger is never empty.
    for (const button of list.querySelectorAll('[data-ledger-remove]')) button.disabled = rows.length === 1;
    add.disabled = rows.length >= kMaxRows;
  }

  add.addEventListener('click', () => {
    const rows = current();
    const last = rows.at(-1)?.spec.type ?? catalog.types[0].name;
    const type = last === 'guarantee' ? catalog.types[0].name : last;
    rows.push({ count: '1', spec: freshSpec(catalog, type) });
    show(rows);
    changed();
    list.lastElementChild.querySelector('select').focus();
  });

  return {
    show,
    rows: current,
    items: () => releaseItems(catalog, pickers),
  };
}
