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

/** The <form> of section `section` (its name) from `description`. */
export function buildForm(section, description) {
  const form = h('form', { class: 'inputs', dataset: { section }, novalidate: true });
  for (const fieldset of description) {
    form.append(
      h(
        'fieldset',
        { hidden: fieldset.hidden },
        h('legend', {}, fieldset.legend),
        fieldset.slot ? h('div', { dataset: { [fieldset.slot]: '' } }) : null,
        fieldset.fields.map((item) => (item.preset ? presetElement(form, item) : fieldElement(section, item))),
      ),
    );
  }
  form.addEventListener('input', () => showApplicableFields(form));
  form.addEventListener('submit', (event) => event.preventDefault());
  return form;
}
