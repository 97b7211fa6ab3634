// The Composition section's ledger on the page: its editor (ledger.js) following the `ledger` input,
// the relation switch where the core takes one, the statistics office's example, and which input
// each request field comes from (to mark errors on).
import { opTakes } from './mechanism-picker.js';
import { ledgerEditor, ledgerText } from './ledger.js';

const inputOf = (form, name) => form.elements[name];

// The ledger's editor of each form (built once the catalog has arrived).
const editors = new WeakMap();

/** Sets the relation switch (where the core takes a relation), as a person would. */
export function setRelation(form, schema, value) {
  const input = inputOf(form, 'relation');
  if (!opTakes(schema, 'compose', 'relation') || input.value === value) return;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A statistics office's year: 12 monthly tables of counts with discrete Gaussian noise σ = 5, a
 * yearly median by the exponential mechanism at ε = 0.5, and 365 daily randomized-response polls
 * with p = 0.5 (two answers). Offered once the core has all three mechanisms; randomized response is
 * accounted under substitution (a respondent's answer changes, as in dp_accounting), so `after`
 * switches the relation to it.
 */
function statisticsOffice(catalog, after) {
  const has = (name) => catalog.types.some((type) => type.name === name);
  if (!['discrete_gaussian', 'exponential', 'randomized_response'].every(has)) return null;
  return {
    label: "A statistics office's year",
    rows: () => [
      { count: '12', spec: { type: 'discrete_gaussian', sigma: '5', sensitivity: '1' } },
      { count: '1', spec: { type: 'exponential', epsilon: '0.5' } },
      { count: '365', spec: { type: 'randomized_response', noise_parameter: '0.5', num_buckets: '2' } },
    ],
    after,
  };
}

function editorOf(form, catalog) {
  if (editors.has(form)) return editors.get(form);
  const input = inputOf(form, 'ledger');
  const editor = ledgerEditor({
    host: form.querySelector('[data-ledger]'),
    idPrefix: 'composition-release',
    catalog,
    onChange: (text) => {
      if (input.value === text) return;
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    example: statisticsOffice(catalog, () => setRelation(form, catalog.schema, 'substitute')),
  });
  editors.set(form, editor);
  return editor;
}

/**
 * Shows ledger `rows` in the form's editor (a link, the visit, the back button may set them) and the
 * relation switch only where the core takes `relation` on compose requests; disables the count of
 * release `unknown` (its count is the answer). Returns the inputs behind the request fields, by
 * request path below "items.<i>".
 */
export function showLedger(form, catalog, rows, unknown = null) {
  const editor = editorOf(form, catalog);
  if (ledgerText(editor.rows()) !== ledgerText(rows)) editor.show(rows);
  inputOf(form, 'relation').closest('.field').hidden = !opTakes(catalog.schema, 'compose', 'relation');
  const releases = editor.items();
  releases.forEach((release, i) => {
    const count = release.fields[`items.${i}.count`];
    if (count) count.disabled = i === unknown;
  });
  return Object.assign({}, ...releases.map((release) => release.fields));
}
