// Small DOM helpers shared by the sections: element creation, reading numeric inputs, and marking
// invalid fields with the calculator's message beside them.
import { parseNumber, quote } from './format.js';
import { apiWords } from './api-words.js';

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

/**
 * Text with emphasis as section descriptions write it (sections.js): a string, or a list of strings
 * and { em: 'k' } (an italic symbol), e.g. ['A person contributes up to ', { em: 'k' }, ' records.'].
 */
export const richText = (parts) =>
  [parts].flat().map((part) => (typeof part === 'string' ? part : h('em', {}, part.em)));

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
  parseProblems.set(
    input,
    text === '' ? 'Enter a number.' : `${quote(text)} is not a number (write e.g. 0.5, 1e-6, 1 × 10⁻⁶ or 256/50000).`,
  );
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

/**
 * A box that scrolls sideways when its content is wider than the screen. It can take the keyboard
 * focus (so it can be scrolled without a mouse) and is named for screen readers.
 */
export function scrollRegion(label, content) {
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, content);
}

// The API's wording of a range ("must be a number in [0, 1) (got 1.5)") → what to do about the
// value that was sent, in words.
const kMaxCount = 2 ** 53;
const requirements = [
  [/must be a number in \[0, 1\)/, (x) => (x >= 1 ? 'must be below 1' : 'must be 0 or more')],
  [/must be a number in \(0, 1\)/, (x) => (x >= 1 ? 'must be below 1' : 'must be above 0')],
  [/must be a number in \(0, 1\]/, (x) => (x > 1 ? 'must be at most 1' : 'must be above 0')],
  [/must be a finite number >= 0/, (x) => (x === Infinity ? 'must be a finite number' : 'must be 0 or more')],
  [/must be a finite number > 0/, (x) => (x === Infinity ? 'must be a finite number' : 'must be above 0')],
  [
    /must be a whole number from 1 to 2\^53/,
    (x) => {
      if (x < 1) return 'must be at least 1';
      return x > kMaxCount ? 'must be at most 2⁵³ (about 9 × 10¹⁵)' : 'must be a whole number';
    },
  ],
  [/must be a whole number/, () => 'must be a whole number'],
];
const kFieldPath = /^[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)* /;

/**
 * An API error message about `input`, rewritten for people: the field is named as the page labels
 * it (its symbol when it has one) rather than by its request path, and a range is said as what the
 * value must be ("δ must be below 1"), without "(got NaN)". `field`: the request path the message is
 * about, named by the input's term wherever the message names it ("or use k = 1").
 */
export function fieldMessage(input, message, field = input.name) {
  const term = input.dataset.term ?? input.name;
  const got = /\(got ([^)]*)\)\.?$/.exec(message);
  const value = got ? Number(got[1]) : Number.NaN;
  for (const [pattern, rule] of requirements) {
    if (pattern.test(message)) return `${term} ${rule(value)}.`;
  }
  const words = message.replace(/ ?\(got [^)]*\)/, '');
  return apiWords(kFieldPath.test(words) ? words.replace(kFieldPath, `${term} `) : words, { [field]: term });
}

// The longest wait for a frame (a page that draws none, such as a hidden tab, waits this long).
const kPaintWaitMs = 100;

/** Resolves once the browser has drawn the page as it is now (the task after the next frame). */
export function afterNextPaint() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, kPaintWaitMs);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
}

/**
 * Lets the keyboard reach every formula and table in `root` that is wider than its box (it scrolls
 * sideways on a narrow screen), and only those, so that wide screens get no extra tab stops.
 */
export function markScrollableFormulas(root) {
  // Every width is read before any attribute is written: a write between two reads would make the
  // browser lay the page out again for each box (hundreds of milliseconds on a first load).
  const boxes = [...root.querySelectorAll('.formula, .table-wrap')].map((box) => ({
    box,
    scrolls: box.scrollWidth > box.clientWidth + 1,
  }));
  for (const { box, scrolls } of boxes) {
    const name = box.matches('.formula') ? 'Formula (scrolls sideways)' : 'Table (scrolls sideways)';
    if (scrolls) {
      Object.assign(box, { tabIndex: 0 });
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', name);
    } else if (box.hasAttribute('role')) {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
}
