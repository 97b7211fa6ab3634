// One mechanism of the core's catalog picked in a section (Group privacy, Noise calibration) with the
// shared picker (mechanism-picker.js). Its spec is kept as text in a hidden input of the section, so
// that links, the visit's memory and the back button carry it like any other input:
//   {"type":"gaussian","sigma":"2","sensitivity":"1"}
import { isSpec, mechanismPicker } from './mechanism-picker.js';

const kMaxSpecLength = 2000;

/** The spec of text `text`, or { error } (a sentence). */
export function parseSpec(text) {
  try {
    const spec = JSON.parse(text);
    return isSpec(spec) ? { spec } : { error: 'the mechanism is not one the page can read' };
  } catch {
    return { error: 'the mechanism is not readable' };
  }
}

/** The description (form.js) of the hidden input `name` that holds the picked mechanism. */
export const pickedField = (name, label) => ({
  name,
  label,
  type: 'hidden',
  value: '',
  maxLength: kMaxSpecLength,
  check: (text) => parseSpec(text).error ?? null,
});

const pickers = new WeakMap();

/**
 * The picker of hidden input `name` of `form`, shown in the form's `[data-<slot>]` element and
 * showing the input's spec (`fallback()` while the input is blank): { picker, spec() }. Call it at
 * every update: it follows the input when a link, the visit or the back button sets it.
 */
export function pickedMechanism(form, { name, slot, idPrefix, label, catalog, fallback }) {
  const input = form.elements[name];
  const text = input.value;
  const current = pickers.get(input);
  if (current && JSON.stringify(current.picker.spec()) === JSON.stringify(current.specOf(text))) return current;
  const specOf = (value) => (value.trim() === '' ? fallback() : (parseSpec(value).spec ?? fallback()));
  const picker = mechanismPicker({
    id: idPrefix,
    catalog,
    spec: specOf(text),
    label,
    onChange: () => {
      const next = JSON.stringify(picker.spec());
      if (input.value === next) return;
      input.value = next;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
  });
  form.querySelector(`[data-${slot}]`).replaceChildren(picker.element);
  const entry = { picker, specOf, spec: () => picker.spec() };
  pickers.set(input, entry);
  return entry;
}
