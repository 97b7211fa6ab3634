// The mechanism picker shared by the sections (Composition's ledger, Group privacy, Noise
// calibration): a choice of every mechanism type the core's catalog holds and an input for each of
// its parameters, built from the catalog itself (schema().mechanisms: name, title, meaning,
// parameters), so that a mechanism registered in the core appears here with no page code. A
// parameter that is itself a mechanism (the inner mechanism of subsampling) gets a nested picker.
//
// A yes/no parameter (the exponential mechanism's `adaptive`) is a checkbox, held as 'true' or 'false'.
// An optional parameter (the discrete Gaussian's `truncation_bound`) sits under "More options" and is
// left out of the request while its input is empty.
//
// A mechanism is held as its request with the numbers as typed ("spec"):
//   { type: 'poisson_subsampled', rate: '0.01', mechanism: { type: 'gaussian', sigma: '1', sensitivity: '1' } }
// which is what links carry; requestOf(spec) turns it into the request the core takes.
import { h, readNumber } from './dom.js';
import { parseNumber } from './format.js';
import { notesOf } from './mechanism-notes.js';

const catalogs = new WeakMap();

/**
 * The catalog: the core's own list when it sends one (schema().mechanisms), else one made from the
 * request schema's mechanism variants (a core built before the list existed).
 */
function catalogFromSchema(schema) {
  if (Array.isArray(schema?.mechanisms)) return schema.mechanisms;
  const variants = schema?.shapes?.mechanism?.variants ?? [];
  return variants.map((variant) => ({
    name: variant.value,
    title: variant.value.replaceAll('_', ' '),
    meaning: variant.meaning,
    parameters: variant.fields.map((field) => ({
      name: field.name,
      meaning: field.meaning,
      kind:
        field.shape === 'mechanism' ? 'mechanism' : ['number', 'boolean'].includes(field.type) ? field.type : 'numbers',
      ...(field.presence.startsWith('default ') ? { default: JSON.parse(field.presence.slice(8)) } : {}),
    })),
    calibratable: [],
  }));
}

/** Resolves to { types: [type], schema } of `calculator` (asked once per calculator). */
export function catalogOf(calculator) {
  if (!catalogs.has(calculator)) {
    catalogs.set(
      calculator,
      Promise.resolve(calculator.schema?.()).then((schema) => ({ types: catalogFromSchema(schema), schema })),
    );
  }
  return catalogs.get(calculator);
}

/** Whether `op`'s request takes field `name` (e.g. 'relation'), by the schema. */
export function opTakes(schema, op, name) {
  const shape = schema?.shapes?.[op];
  if (!shape) return false;
  return [shape.fields, ...(shape.variants ?? []).map((variant) => variant.fields)]
    .flat()
    .some((field) => field.name === name);
}

const typeOf = (catalog, name) => catalog.types.find((type) => type.name === name);

/** Whether `spec` has the form of a spec (a type, texts and nested specs), as links must give it. */
export const isSpec = (spec) =>
  spec !== null &&
  typeof spec === 'object' &&
  !Array.isArray(spec) &&
  typeof spec.type === 'string' &&
  Object.entries(spec).every(([key, value]) => key === 'type' || typeof value === 'string' || isSpec(value));

/** The spec of a fresh mechanism of type `name`: defaults from the catalog, examples from the notes. */
export function freshSpec(catalog, name) {
  const type = typeOf(catalog, name);
  const { examples = {} } = notesOf(name);
  const spec = { type: name };
  for (const parameter of type?.parameters ?? []) {
    if (parameter.kind === 'mechanism') {
      const inner = catalog.types.find((candidate) => candidate.parameters.every((p) => p.kind === 'number'));
      spec[parameter.name] = freshSpec(catalog, inner?.name ?? catalog.types[0].name);
    } else if (!parameter.optional) {
      spec[parameter.name] =
        examples[parameter.name] ?? (parameter.default !== undefined ? String(parameter.default) : '1');
    }
  }
  return spec;
}

/** "1, 2.5, 3" → [1, 2.5, 3] (NaN where a part is not a number). */
const listOf = (text) =>
  String(text)
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map(parseNumber);

/**
 * The request of `spec` and, for each of its request fields below `path` (e.g. "items.0.mechanism"),
 * the input that holds it (`inputs`: parameter path → input, from the picker), to mark errors on.
 */
export function requestOf(catalog, spec, path = 'mechanism', inputs = new Map()) {
  const type = typeOf(catalog, spec.type);
  const request = { type: spec.type };
  const fields = {};
  for (const parameter of type?.parameters ?? []) {
    const key = `${path}.${parameter.name}`;
    const input = inputs.get(parameter.name);
    if (parameter.kind === 'mechanism') {
      const inner = requestOf(catalog, spec[parameter.name] ?? {}, key, inputs.get(`${parameter.name}/`) ?? new Map());
      request[parameter.name] = inner.request;
      Object.assign(fields, inner.fields);
      continue;
    }
    if (input) fields[key] = input;
    const text = spec[parameter.name] ?? '';
    if (parameter.optional && String(input ? input.value : text).trim() === '') continue;
    if (parameter.kind === 'boolean') request[parameter.name] = input ? input.checked : text !== 'false';
    else if (parameter.kind === 'numbers') request[parameter.name] = listOf(text);
    else if (input) request[parameter.name] = readNumber(input);
    else request[parameter.name] = parseNumber(text);
  }
  return { request, fields };
}

/** "Discrete Gaussian (σ = 5, Δ = 1)": a mechanism in words, as the page names it. */
export function specWords(catalog, spec) {
  const type = typeOf(catalog, spec.type);
  if (!type) return spec.type;
  const { symbols = {}, inWords = {} } = notesOf(spec.type);
  // Numbers in parentheses, a nested mechanism after them: "… (q = 0.01) of a Gaussian mechanism (σ = 1, Δ = 1)".
  // A yes/no parameter reads as yes or no, its default when the spec leaves it out.
  const valueOf = (parameter) =>
    parameter.kind === 'boolean'
      ? String(spec[parameter.name] ?? parameter.default ?? true) === 'false'
        ? 'no'
        : 'yes'
      : (spec[parameter.name] ?? '');
  const numbers = type.parameters
    .filter((parameter) => parameter.kind !== 'mechanism' && !(parameter.optional && !spec[parameter.name]))
    .map((parameter) =>
      inWords[parameter.name]
        ? `${valueOf(parameter)} ${inWords[parameter.name]}`
        : `${symbols[parameter.name] ?? parameter.name.replaceAll('_', ' ')} = ${valueOf(parameter)}`,
    );
  const inner = type.parameters
    .filter((parameter) => parameter.kind === 'mechanism')
    .map((parameter) => ` of a ${specWords(catalog, spec[parameter.name] ?? {})}`);
  return `${type.title}${numbers.length ? ` (${numbers.join(', ')})` : ''}${inner.join('')}`;
}

// A meaning that opens with a word ("noise scale b > 0") starts with a capital; one that opens
// with a symbol ("ε > 0 of one selection", "p in (0, 1]") keeps it, since the symbol's case is its meaning.
const capitalized = (text) =>
  text.replace(/^(?:a\b|[a-z]{2,})/, (word) => word.charAt(0).toUpperCase() + word.slice(1));

/** A yes/no parameter `name` of the picker `id` (its spec and inputs in `state`), as a checkbox. */
function checkboxField(id, state, { name, text, labelText }) {
  const inputId = `${id}-${name.replaceAll('_', '-')}`;
  const input = h('input', { id: inputId, type: 'checkbox', dataset: { term: name, parameter: name } });
  input.checked = text !== 'false';
  input.addEventListener('change', () => {
    state.spec[name] = String(input.checked);
  });
  state.inputs.set(name, input);
  return h(
    'div',
    { class: 'field check', dataset: { field: name } },
    h('label', { for: inputId }, input, ` ${labelText}`),
  );
}

/** A number (or list) parameter `name` of the picker `id` (its spec and inputs in `state`), as a text input. */
function parameterField(id, state, { name, text, labelText, symbol, hint }) {
  const inputId = `${id}-${name.replaceAll('_', '-')}`;
  const input = h('input', {
    id: inputId,
    type: 'text',
    inputmode: 'text',
    value: text,
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    dataset: { term: symbol ?? name.replaceAll('_', ' '), parameter: name },
  });
  input.addEventListener('input', () => {
    state.spec[name] = input.value;
  });
  const hintElement = hint ? h('span', { class: 'hint', id: `${inputId}-hint` }, hint) : null;
  if (hintElement) input.setAttribute('aria-describedby', hintElement.id);
  state.inputs.set(name, input);
  return h(
    'div',
    { class: 'field', dataset: { field: name } },
    h('label', { for: inputId }, labelText, symbol && !labelText.includes(symbol) ? ` ${symbol}` : ''),
    input,
    hintElement,
  );
}

/** The fields of the catalog's mechanism of `state.spec` (a nested picker for a parameter that is a mechanism). */
function mechanismFields(id, catalog, state) {
  const type = typeOf(catalog, state.spec.type);
  const { symbols = {} } = notesOf(state.spec.type);
  const children = [];
  const more = [];
  for (const parameter of type?.parameters ?? []) {
    const { name } = parameter;
    if (parameter.kind === 'mechanism') {
      const inner = mechanismPicker({
        id: `${id}-${name.replaceAll('_', '-')}`,
        catalog,
        spec: state.spec[name] ?? freshSpec(catalog, catalog.types[0].name),
        label: capitalized(parameter.meaning),
        onChange: () => {
          state.spec[name] = inner.spec();
          state.inputs.set(`${name}/`, inner.inputs);
        },
      });
      state.inputs.set(`${name}/`, inner.inputs);
      children.push(h('div', { class: 'nested-mechanism' }, inner.element));
    } else if (parameter.kind === 'boolean') {
      const text = state.spec[name] ?? String(parameter.default ?? true);
      const field = checkboxField(id, state, { name, text, labelText: capitalized(name.replaceAll('_', ' ')) });
      field.title = capitalized(parameter.meaning);
      children.push(field);
    } else {
      const text = state.spec[name] ?? '';
      const hint = parameter.kind === 'numbers' ? 'numbers separated by commas' : null;
      const labelText = capitalized(parameter.meaning);
      (parameter.optional ? more : children).push(
        parameterField(id, state, { name, text, labelText, symbol: symbols[name], hint }),
      );
    }
  }
  if (more.length) {
    const open = more.some((field) => field.querySelector('input').value.trim() !== '');
    children.push(h('details', { class: 'more-options', open }, h('summary', {}, 'More options'), ...more));
  }
  return children;
}

/**
 * A picker: a <div> with the type choice and the parameter inputs of `spec`. `id` prefixes the
 * element ids (unique on the page); `extraTypes` ([[value, text, fields]]) adds choices that are not
 * mechanisms (the ledger's "(ε, δ)-DP guarantee"), whose `fields` ([{ name, label, symbol, value }])
 * are its inputs; `onChange()` runs after every edit. Returns { element, spec(), inputs }.
 *   spec()   the spec as typed now
 *   inputs   parameter name → input (and "<name>/" → the nested picker's inputs)
 */
export function mechanismPicker({ id, catalog, spec, label = 'Mechanism', extraTypes = [], onChange = () => {} }) {
  const element = h('div', { class: 'mechanism-picker', dataset: { picker: id } });
  const state = { spec: structuredClone(spec), inputs: new Map() };
  const select = h(
    'select',
    { id: `${id}-type`, dataset: { term: label } },
    extraTypes.map(([value, text]) => h('option', { value }, text)),
    catalog.types.map((type) => h('option', { value: type.name }, capitalized(type.title))),
  );
  const typeField = h('div', { class: 'field choice wide' }, h('label', { for: select.id }, label), select);
  const parameterBox = h('div', { class: 'parameters' });
  element.append(typeField, parameterBox);

  const extraOf = (name) => extraTypes.find(([value]) => value === name);
  const render = () => {
    select.value = state.spec.type;
    state.inputs = new Map();
    const extra = extraOf(state.spec.type);
    const fields = extra
      ? extra[2].map((field) =>
          parameterField(id, state, {
            name: field.name,
            text: state.spec[field.name] ?? field.value,
            labelText: field.label,
            symbol: field.symbol,
            hint: field.hint,
          }),
        )
      : mechanismFields(id, catalog, state);
    parameterBox.replaceChildren(...fields);
  };

  select.addEventListener('change', () => {
    const extra = extraOf(select.value);
    state.spec = extra
      ? { type: select.value, ...Object.fromEntries(extra[2].map((field) => [field.name, field.value])) }
      : freshSpec(catalog, select.value);
    render();
  });
  element.addEventListener('input', () => onChange());
  element.addEventListener('change', () => onChange());
  render();
  return {
    element,
    spec: () => structuredClone(state.spec),
    get inputs() {
      return state.inputs;
    },
  };
}
