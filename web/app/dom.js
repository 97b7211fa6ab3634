// Small DOM helpers shared by the sections: element creation, reading numeric inputs, and marking
// invalid fields with the calculator's message beside them.
import { parseNumber, quote } from './format.js';

/** h('td', { class: 'x', dataset: { value: '1' } }, child, 'text', …) */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key === 'class') element.className = value;
    else element.setAttribute(key, value === true ? '' : value);
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

const parseProblems = new WeakMap();

/**
 * The number typed in `input`, or NaN when the text is not a number (the calculator then rejects
 * the field, and the page explains the text it could not read instead of the NaN it sent).
 */
export function readNumber(input) {
  const text = input.value.trim();
  const number = parseNumber(text);
  if (!Number.isNaN(number)) {
    parseProblems.delete(input);
    return number;
  }
  parseProblems.set(input, text === '' ? 'Enter a number.' : `${quote(text)} is not a number (write e.g. 0.5, 1e-6 or 1 × 10⁻⁶).`);
  return Number.NaN;
}

function errorElement(input) {
  const id = `${input.id}-error`;
  let element = document.getElementById(id);
  if (!element) {
    element = h('p', { id, class: 'field-error' });
    element.hidden = true;
    input.closest('.field').append(element);
    input.setAttribute('aria-describedby', id);
  }
  return element;
}

/** Marks every input of `form` found in `errors` (input → message) as invalid; clears the others. */
export function showFieldErrors(form, errors) {
  for (const input of form.querySelectorAll('input, select')) {
    const message = errors.get(input);
    const element = errorElement(input);
    if (message === undefined) {
      input.removeAttribute('aria-invalid');
      element.hidden = true;
      element.textContent = '';
    } else {
      input.setAttribute('aria-invalid', 'true');
      element.textContent = parseProblems.get(input) ?? message;
      element.hidden = false;
    }
  }
}
