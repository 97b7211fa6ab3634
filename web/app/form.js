// Builds a section's <form> from a small declarative description, so that every section gets the
// same markup: a labelled input per field with its meaning underneath, the right keyboard on phones,
// fields shown only for the choices they belong to, and example buttons.
//
// A form description is a list of fieldsets: { legend, fields: [field | preset] } where
//   field  = { name, label, symbol?, hint?, value, type: 'number' | 'count' | 'choice' | 'text',
//              options?: [[value, text], …] (type 'choice'), shownWhen?: { otherField: [values…] },
//              wide? }
//   preset = { preset: 'button text', values: { name: text, … } }  (fills the fields, like typing)
// A field of type 'hidden' holds text that the section edits with a control of its own (the
// Composition ledger); a fieldset with `slot: 'name'` gets an empty <div data-name> for that control
// after its legend, and one with `hidden: true` holds inputs only links still set.
// `value` is the text the field holds by default: the section's default state.
// A fieldset, field or preset with `more: true` is not what the question needs first: it goes under
// one closed "More options" at the end of the form, whose summary states the defaults it holds (a
// field keeps its fieldset's legend there; a fieldset's `moreDefaults` states its defaults in words).
// It opens when one of its inputs is set or marked.
import { h } from './dom.js';
import { termElement } from './glossary.js';

// 'number' fields take e-notation and the page's own "1 × 10⁻⁵", which numeric keypads cannot type.
const inputModes = { number: 'text', count: 'numeric', text: 'text' };

/** The element id of field `name` of section `section` (stable: tests and links use it). */
const fieldId = (section, name) => `${section}-${name.replaceAll('_', '-')}`;

function labelOf(field, id) {
  return h('label', { for: id }, field.label, field.symbol ? [' ', termElement(field.symbol)] : null);
}

function controlOf(field, id) {
  if (field.type === 'choice') {
    return h(
      'select',
      // data-term: how error messages name the field (its label, never its request name).
      { id, name: field.name, dataset: { term: field.label } },
      field.options.map(([value, text]) => h('option', { value, selected: value === field.value }, text)),
    );
  }
  // data-term: how error messages name the field ("δ must be below 1").
  return h('input', {
    id,
    name: field.name,
    type: 'text',
    inputmode: inputModes[field.type] ?? 'text',
    value: field.value,
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    dataset: { term: field.symbol ?? field.label },
  });
}

function fieldElement(section, field) {
  const id = fieldId(section, field.name);
  if (field.type === 'hidden') {
    const input = h('input', { id, name: field.name, type: 'hidden', value: field.value });
    return h('div', { class: 'field', hidden: true, dataset: { field: field.name } }, input);
  }
  const hint = field.hint ? h('span', { class: 'hint', id: `${id}-hint` }, field.hint) : null;
  const control = controlOf(field, id);
  if (hint) control.setAttribute('aria-describedby', hint.id);
  const element = h(
    'div',
    // A choice is as wide as its longest option (styles.css), so that no option is cut.
    {
      class: ['field', field.wide ? 'wide' : '', field.type === 'choice' ? 'choice' : ''].join(' ').trim(),
      dataset: { field: field.name },
    },
    labelOf(field, id),
    control,
    hint,
  );
  if (field.shownWhen) element.dataset.shownWhen = JSON.stringify(field.shownWhen);
  return element;
}

function presetElement(form, item) {
  const button = h('button', { type: 'button', class: 'secondary', dataset: { preset: '' } }, item.preset);
  // Like typing: each input it fills counts as set by the person (see mount.js).
  button.addEventListener('click', () => {
    for (const [name, value] of Object.entries(item.values)) {
      form.elements[name].value = value;
      form.elements[name].dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  return h('div', { class: 'field presets' }, h('span', { class: 'preset-label' }, 'Example'), button);
}

/** Shows each field whose `shownWhen` matches the current choices and hides the others (their text stays in the state). */
export function showApplicableFields(form) {
  for (const element of form.querySelectorAll('.field[data-shown-when]')) {
    const conditions = Object.entries(JSON.parse(element.dataset.shownWhen));
    element.hidden = !conditions.every(([name, values]) => values.includes(form.elements[name].value));
  }
}

/** A field's default as "More options" states it: "Plot up to group size = 16", "Neighbours: zero-out". */
function defaultText(field) {
  // The label without what the summary says itself: "Plot up to k =", "Grid step (blank: automatic)".
  const label = field.label.replace(/\s*\([^)]*\)$/, '').replace(/\s*=$/, '');
  const name = field.symbol ? `${label} ${field.symbol}` : label;
  if (field.type === 'choice') return `${name}: ${field.options.find(([option]) => option === field.value)?.[1]}`;
  return `${name} = ${field.value === '' ? 'automatic' : field.value}`;
}

/** Whether `field` is shown with every other field at its default (the defaults "more options" states). */
function shownByDefault(field, description) {
  if (!field.shownWhen) return true;
  const defaults = Object.fromEntries(
    description.flatMap((fieldset) => fieldset.fields).map((item) => [item.name, item.value]),
  );
  return Object.entries(field.shownWhen).every(([name, values]) => values.includes(defaults[name]));
}

/** The closed "More options" of `items` ([legend, fields]), its summary stating the defaults. */
function moreOptions(form, section, description, items) {
  const stated = items.flatMap(([fieldset, fields]) =>
    fieldset.moreDefaults
      ? [fieldset.moreDefaults]
      : fields
          .filter((field) => field.name && field.type !== 'hidden' && shownByDefault(field, description))
          .map(defaultText),
  );
  const summary = h(
    'summary',
    {},
    h('span', { class: 'more-title' }, 'More options'),
    stated.length > 0 ? h('span', { class: 'more-defaults' }, `defaults: ${stated.join('; ')}`) : null,
  );
  return h(
    'details',
    { class: 'more-options', dataset: { moreOptions: section } },
    summary,
    h(
      'div',
      { class: 'more-body' },
      items.map(([fieldset, fields]) =>
        h(
          'fieldset',
          { hidden: fieldset.hidden },
          h('legend', {}, fieldset.legend),
          fieldset.slot && fieldset.more ? h('div', { dataset: { [fieldset.slot]: '' } }) : null,
          fields.map((item) => (item.preset ? presetElement(form, item) : fieldElement(section, item))),
        ),
      ),
    ),
  );
}

/** Opens the "More options" of `form` when `element` is inside it (an input set, marked or filled by an example). */
export function revealField(element) {
  const details = element?.closest?.('details.more-options');
  if (details && !details.open) details.open = true;
}

/** The <form> of section `section` (its name) from `description`. */
export function buildForm(section, description) {
  const form = h('form', { class: 'inputs', dataset: { section }, novalidate: true });
  const more = [];
  for (const fieldset of description) {
    const first = fieldset.more ? [] : fieldset.fields.filter((item) => !item.more);
    const later = fieldset.more ? fieldset.fields : fieldset.fields.filter((item) => item.more);
    if (later.length > 0 || (fieldset.more && fieldset.slot)) more.push([fieldset, later]);
    if (fieldset.more) continue;
    form.append(
      h(
        'fieldset',
        { hidden: fieldset.hidden },
        h('legend', {}, fieldset.legend),
        fieldset.slot ? h('div', { dataset: { [fieldset.slot]: '' } }) : null,
        first.map((item) => (item.preset ? presetElement(form, item) : fieldElement(section, item))),
      ),
    );
  }
  if (more.length > 0) form.append(moreOptions(form, section, description, more));
  form.addEventListener('input', (event) => {
    revealField(event.target);
    showApplicableFields(form);
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  return form;
}
