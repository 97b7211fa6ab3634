// Renders calculator responses: a guarantee as "ε ≤ …" text, and a table comparing methods, each row
// with the method's name, its guarantee, its formula and its citation. Errors land in the row and,
// when they name a field of the form, beside that field.
import { fieldMessage, h, readNumber } from './dom.js';
import { formatNumber } from './format.js';
import { formulaElement } from './formula.js';
import { keysOf } from './citation-keys.js';
import { apiWords } from './api-words.js';

export const kVacuousText = 'no meaningful guarantee (δ ≥ 1)';

/**
 * A guarantee as text, e.g. "ε ≤ 4, δ ≤ 3.1193 × 10⁻⁵". `deltaIsGiven` says the δ was an input
 * (the ε is the bound at that δ), so it is shown as "at δ = …" without rounding.
 */
export function guaranteeElement(guarantee, { vacuous = false, deltaIsGiven = false, direction = 'up' } = {}) {
  const dataset = {};
  for (const key of ['epsilon', 'delta', 'rho'])
    if (typeof guarantee?.[key] === 'number') dataset[key] = String(guarantee[key]);
  const relation = direction === 'up' ? '≤' : '=';
  const parts = [];
  if (vacuous) return h('span', { class: 'bound vacuous', dataset }, kVacuousText);
  // Each part stays on one line; a narrow screen breaks between parts, never inside a number.
  if (guarantee.type === 'zcdp') parts.push(`ρ ${relation} ${formatNumber(guarantee.rho, direction)}`);
  if (guarantee.type === 'pure' || guarantee.type === 'approx') {
    parts.push(`ε ${relation} ${formatNumber(guarantee.epsilon, direction)}`);
  }
  if (guarantee.type === 'approx') {
    parts.push(
      deltaIsGiven
        ? `at δ = ${formatNumber(guarantee.delta, 'down')}`
        : `δ ${relation} ${formatNumber(guarantee.delta, direction)}`,
    );
  }
  const separator = deltaIsGiven ? ' ' : ', ';
  return h(
    'span',
    { class: 'bound', dataset },
    parts.flatMap((part, i) => [i > 0 ? separator : null, h('span', { class: 'part' }, part)]),
  );
}

/** The value at dotted request path `path` ("items.0.guarantee.epsilon") of `request`. */
const valueAt = (request, path) => path.split('.').reduce((value, key) => value?.[key], request);

/**
 * The inputs behind the fields of `request`, for marking errors (methodRow's `fields`): `fields` maps
 * request paths to input names of `form` (or to inputs). Every input that gave the request a number
 * is read as one (readNumber), so that a text that is not a number is explained as such beside it.
 */
export function inputsOf(form, fields, request) {
  const inputs = {};
  for (const [path, name] of Object.entries(fields)) {
    const input = typeof name === 'string' ? form.elements[name] : name;
    if (!input) continue;
    if (request !== undefined && typeof valueAt(request, path) === 'number') readNumber(input);
    inputs[path] = input;
  }
  return inputs;
}

/** Request path → the label of the input behind it (`fields` as collectFieldError takes them). */
const termsOf = (fields) =>
  Object.fromEntries(
    Object.entries(fields)
      .filter(([, input]) => typeof input === 'object')
      .map(([path, input]) => [path, input.dataset?.term ?? input.name]),
  );

/** Adds the error of `response` to `errors` (input → message) when its field is one of `fields`. */
export function collectFieldError(response, fields, errors) {
  if (response.ok) return false;
  const input = fields[response.error.field];
  if (!input) return false;
  if (!errors.has(input)) errors.set(input, fieldMessage(input, response.error.message, response.error.field));
  return true;
}

/**
 * One row of a comparison table. row: { id, label, formula, response, fields, render(result) → Node,
 * note?(result) → Node | string, notApplicable?(error) → string, example?: string, proven?: false }, or, while its answer is still
 * being computed, `pending` (a Node) instead of `response`. Errors that name an input are collected
 * into `errors` (see collectFieldError) for the caller to mark; the row itself says what went wrong.
 * A method that does not apply to the inputs (error code 'unsupported') is not an error: the row
 * says why in a sentence (`notApplicable`), not in the API's words. A row computed from example
 * values the person did not set says so (`example`, e.g. "example ρ = 0.125, not set by you").
 */
export function methodRow(row, errors) {
  const { response } = row;
  let answer;
  let method = '';
  let citation = '';
  let citationKeys = [];
  if (!response) {
    answer = row.pending;
  } else if (response.ok) {
    const { result } = response;
    // A note the core wrote (a string) may name its methods and fields as the API does.
    const note = row.note?.(result) ?? '';
    const noteText = typeof note === 'string' ? apiWords(note) : note;
    answer = h('div', {}, row.render(result), row.note ? h('div', { class: 'note' }, noteText) : null);
    method = result.method ?? '';
    citation = result.citation ?? '';
    citationKeys = keysOf(result.citation_key);
  } else if (response.error.code === 'unsupported') {
    answer = h(
      'span',
      { class: 'not-applicable' },
      row.notApplicable?.({
        ...response.error,
        message: apiWords(response.error.message, termsOf(row.fields ?? {})),
      }) ?? 'This method does not apply to these inputs.',
    );
  } else {
    const namesInput = collectFieldError(response, row.fields ?? {}, errors);
    answer = h(
      'span',
      { class: 'row-error' },
      namesInput
        ? `Check the marked field: ${errors.get(row.fields[response.error.field])}`
        : apiWords(response.error.message, termsOf(row.fields ?? {})),
    );
  }
  const applies = response && !response.ok && response.error.code === 'unsupported' ? { applies: 'false' } : {};
  const dataset = {
    row: row.id,
    ...(response ? { ok: String(response.ok) } : {}),
    ...applies,
    ...(row.status ? { status: row.status } : {}),
    ...(row.example ? { example: 'true' } : {}),
    // Not a proven bound (an over-approximation, a rule of thumb, a bound that rests on an
    // assumption): the row says so in its label, and the LaTeX export leaves it out.
    ...(row.proven === false ? { proven: 'false' } : {}),
  };
  const label = h(
    'th',
    { scope: 'row' },
    row.compared ? h('span', { class: 'example-badge' }, 'Example') : null,
    h('span', { class: 'row-label' }, row.label),
    method && method !== row.label ? h('span', { class: 'method' }, method) : null,
    row.example ? h('span', { class: 'example-note' }, row.example) : null,
  );
  // A method that does not apply shows only why (its formula would only distract).
  if (applies.applies) return h('tr', { dataset }, label, h('td', { class: 'answer', colspan: '3' }, answer));
  return h(
    'tr',
    { dataset },
    label,
    h('td', { class: 'answer', dataset: { label: 'Guarantee' } }, answer),
    h('td', { class: 'formula-cell', dataset: { label: 'Formula' } }, formulaElement(row.formula)),
    h('td', { class: 'citation', dataset: { label: 'Citation' } }, citation ? citeElement(citation, citationKeys) : ''),
  );
}

/** A citation as shown, with the BibTeX keys of its works (`keys`) for the export (bibliography.js). */
export function citeElement(text, keys) {
  return h('cite', { dataset: { keys: keys.join(' ') } }, text);
}

/** The <table> of `rows` (methodRow's), with its caption. */
function rowsTable(caption, rows, errors) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'methods' },
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Method'),
          h('th', { scope: 'col' }, 'Guarantee'),
          h('th', { scope: 'col' }, 'Formula'),
          h('th', { scope: 'col' }, 'Citation'),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) => methodRow(row, errors)),
      ),
    ),
  );
}

/**
 * A comparison table of rows as methodRow takes them. Rows computed from example values nobody set
 * (`example`) that the headline does not answer (`answers`) are not mixed with the answer: they go
 * to one "Compare with" block after the table, closed until asked for, each named an example.
 */
export function methodTable({ caption, rows, errors }) {
  const compared = rows.filter((row) => row.example && !row.answers);
  if (compared.length === 0 || compared.length === rows.length) return rowsTable(caption, rows, errors);
  const own = rows.filter((row) => !compared.includes(row));
  const named = compared.map((row) => ({ ...row, compared: true }));
  const count = `${compared.length} example${compared.length === 1 ? '' : 's'}`;
  return h(
    'div',
    { class: 'method-tables' },
    rowsTable(caption, own, errors),
    h(
      'details',
      { class: 'compare-with', dataset: { compareWith: '' } },
      h(
        'summary',
        {},
        `Compare with: ${count} you did not set`,
        h('span', { class: 'compare-note' }, 'computed from the form’s example values, not from your inputs'),
      ),
      rowsTable(`Compare with: ${count}, from values not set by you`, named, errors),
    ),
  );
}
