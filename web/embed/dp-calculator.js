// <dp-calculator>: one calculator section as a custom element, for other people's pages.
//   <script type="module" src="https://…/dpcalc/dp-calculator.js"></script>
//   <dp-calculator section="group" k="8" epsilon="1" delta="1e-6"></dp-calculator>
// Every section of the page has its element form (sections.js: the page's ten questions, each
// with a few inputs); any other request goes in the `request` attribute as JSON. The attributes are
// the inputs (the element shows them as fields and writes edits back to them); the answer of each
// method is shown with its citation. Styles live in a constructed stylesheet of
// the shadow root and nothing is evaluated, so a host page with a strict Content-Security-Policy
// only has to allow this script's origin (and 'wasm-unsafe-eval' if workers cannot start; see the
// README). Every number shown is an upper bound, rounded up, unless it says otherwise.
import { createWorkerCalculator } from '../client.js';
import { answerText } from '../app/answer-text.js';
import { fieldsOf } from '../app/form-fields.js';
import { catalogOf } from '../app/mechanism-picker.js';
import { answerAll } from '../app/ask.js';
import { apiWords } from '../app/api-words.js';
import { sections } from './sections.js';

const styles = `
:host { display: block; color-scheme: light dark; font: 1rem/1.45 system-ui, sans-serif; color: CanvasText;
  background: Canvas; border: 1px solid GrayText; border-radius: 0.5rem; padding: 0.75rem 1rem; max-width: 48rem; }
h2 { font-size: 1.1rem; margin: 0 0 0.25rem; }
p { margin: 0 0 0.5rem; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin-bottom: 0.75rem; }
label { display: flex; flex-direction: column; font-size: 0.85rem; }
input { font: inherit; width: 8rem; padding: 0.2rem 0.35rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem 0.3rem 0; border-top: 1px solid GrayText; }
.answer { font-weight: 600; font-variant-numeric: tabular-nums; }
.error { color: #b00020; }
input[aria-invalid="true"] { outline: 2px solid #b00020; outline-offset: 1px; }
.cite { font-size: 0.8rem; opacity: 0.8; }
.summary { font-weight: 600; }
@media (prefers-color-scheme: dark) { .error { color: #ff8a80; } input[aria-invalid="true"] { outline-color: #ff8a80; } }
`;

let sharedCalculator = null;
let sharedSheet = null;

function calculator() {
  sharedCalculator ??= createWorkerCalculator({ onFallback: () => {} });
  return sharedCalculator;
}

function sheet() {
  if (!sharedSheet) {
    sharedSheet = new CSSStyleSheet();
    sharedSheet.replaceSync(styles);
  }
  return sharedSheet;
}

function element(tag, properties = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name in node && name !== 'list') node[name] = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** The input attribute `attribute` of `section` stands for. */
const inputOf = (section, attribute) => section.aliases?.[attribute] ?? attribute.replaceAll('-', '_');

/** Every attribute the element reads: the section, a request, and every section's inputs and aliases. */
function attributeNames() {
  const names = new Set(['section', 'request']);
  for (const section of Object.values(sections)) {
    for (const field of fieldsOf(section.description.form)) names.add(field.name.replaceAll('_', '-'));
    for (const alias of Object.keys(section.aliases ?? {})) names.add(alias);
  }
  return [...names];
}

/** The section's field of input `name` (its label, default, and when the page shows it). */
const fieldOf = (section, name) => fieldsOf(section.description.form).find((field) => field.name === name);

/** Whether the page's form shows field `field` for the choices in `inputs` (form.js shownWhen). */
const applies = (field, inputs) =>
  Object.entries(field.shownWhen ?? {}).every(([name, values]) => values.includes(inputs[name]));

/**
 * The rows the element shows for answered `items` of `section`: those that answer the question as
 * asked (the section's `asked`, else every row), without the methods that do not apply.
 */
function shownRows(section, items, inputs, isSet) {
  const rows = items.filter((item) => item.role === 'row');
  const ids = section.shared.asked?.(inputs, isSet);
  return ids ? ids.map((id) => rows.find((item) => item.id === id)).filter(Boolean) : rows;
}

const doesNotApply = (item) =>
  !item.response.ok &&
  (item.response.error.code === 'unsupported' || (item.optional && item.response.error.field === 'method'));

class DpCalculator extends HTMLElement {
  static get observedAttributes() {
    return attributeNames();
  }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.adoptedStyleSheets = [sheet()];
    this.generation = 0;
    this.controller = null;
    this.timer = 0;
  }

  connectedCallback() {
    this.render();
  }

  attributeChangedCallback(name, previous, value) {
    if (!this.isConnected || previous === value) return;
    if (name === 'section') this.render();
    else this.schedule();
  }

  section() {
    return sections[this.getAttribute('section') ?? 'group'];
  }

  /** Input → text of the attributes set (by the input each stands for), with the inputs they imply. */
  given(section) {
    const given = {};
    for (const attribute of this.getAttributeNames()) {
      if (attribute === 'section' || attribute === 'request') continue;
      const name = inputOf(section, attribute);
      if (fieldOf(section, name)) given[name] = this.getAttribute(attribute);
    }
    return { ...given, ...section.implied?.(given) };
  }

  /** The section's inputs: its page defaults, with the attributes set. */
  inputs(section) {
    const defaults = Object.fromEntries(fieldsOf(section.description.form).map((field) => [field.name, field.value]));
    return { ...defaults, ...this.given(section) };
  }

  /** The fields shown: those the page shows for these choices; of alternatives, those set (or the example). */
  shownFields(section) {
    const inputs = this.inputs(section);
    const isSet = (attribute) => this.hasAttribute(attribute);
    const alternatives = section.alternatives ?? [];
    const anySet = alternatives.some(isSet);
    return section.fields.filter((attribute) => {
      if (!applies(fieldOf(section, inputOf(section, attribute)), inputs)) return false;
      if (!alternatives.includes(attribute)) return true;
      return anySet ? isSet(attribute) : section.example.includes(attribute);
    });
  }

  render() {
    const section = this.section();
    // The table is not a live region: the status line announces a one-line summary instead.
    this.results = element('div', { className: 'results' });
    this.summary = element('p', { className: 'summary', role: 'status' });
    if (this.hasAttribute('request') || !section) {
      const known = Object.keys(sections).join(', ');
      this.root.replaceChildren(
        element('h2', {}, 'dpcalc'),
        section || this.hasAttribute('request')
          ? ''
          : element(
              'p',
              { className: 'error' },
              `Unknown section "${this.getAttribute('section')}" (use one of ${known}).`,
            ),
        this.summary,
        this.results,
      );
      this.schedule();
      return;
    }
    const form = element('form', { className: 'inputs' });
    const inputs = this.inputs(section);
    for (const attribute of this.shownFields(section)) {
      const field = fieldOf(section, inputOf(section, attribute));
      const control = element('input', {
        type: 'text',
        inputMode: 'text',
        autocomplete: 'off',
        spellcheck: false,
        name: attribute,
        value: inputs[field.name],
      });
      control.addEventListener('input', () => this.setAttribute(attribute, control.value));
      const label = field.symbol ? `${field.label} ${field.symbol}` : field.label;
      form.append(element('label', {}, section.labels?.[attribute] ?? label, control));
    }
    form.addEventListener('submit', (event) => event.preventDefault());
    this.root.replaceChildren(
      element('h2', {}, section.title),
      element('p', {}, section.question),
      form,
      this.summary,
      this.results,
    );
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), 100);
  }

  /** The rows to show, answered: [{ label, request, response, describe? }] (null when superseded). */
  async answers(signal) {
    if (this.hasAttribute('request')) {
      let request;
      try {
        request = JSON.parse(this.getAttribute('request'));
      } catch (error) {
        return [{ label: 'Result', response: failure(`The request attribute is not JSON: ${error.message}`) }];
      }
      return answerAll(calculator(), [{ id: 'request', label: 'Result', request }], { signal });
    }
    const section = this.section();
    if (!section) return [];
    const inputs = this.inputs(section);
    const given = this.given(section);
    const isSet = (name) => Object.hasOwn(given, name);
    const catalog = await catalogOf(calculator());
    const shown = shownRows(section, section.shared.requests(inputs, { catalog }), inputs, isSet);
    const answered = await answerAll(calculator(), shown, { signal });
    // An error names a field by the label its input has here (a `request` of the host's own keeps
    // the API's words, which it was written in).
    const termOf = (name) => {
      const field = fieldOf(section, name);
      return field && (field.symbol ?? field.label);
    };
    const termsOf = (fields = {}) =>
      Object.fromEntries(
        Object.entries(fields)
          .map(([path, name]) => [path, termOf(name)])
          .filter(([, term]) => term),
      );
    return answered
      .filter((item) => !doesNotApply(item))
      .map((item) => ({ ...item, describe: section.describe, terms: termsOf(item.fields) }));
  }

  async update() {
    const generation = ++this.generation;
    this.controller?.abort();
    this.controller = new AbortController();
    this.setAttribute('aria-busy', 'true');
    let rows;
    try {
      rows = await this.answers(this.controller.signal);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      rows = [{ label: 'Result', response: failure(error?.message ?? String(error)) }];
    }
    if (generation !== this.generation) return;
    this.show(rows);
  }

  /** Marks the inputs an error is about (aria-invalid, outlined); the row says why, naming the field by its label. */
  markInvalid(rows) {
    const section = this.section();
    if (!section) return;
    const invalid = new Set(
      rows.filter((row) => !row.response.ok && row.fields).map((row) => row.fields[row.response.error.field]),
    );
    for (const control of this.root.querySelectorAll('form.inputs input')) {
      if (invalid.has(inputOf(section, control.name))) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    }
  }

  /** Shows the answered rows: a table of label, answer and citation, and the first answer as the summary. */
  show(rows) {
    const text = (row) => (row.describe ?? ((item) => answerText(item.response.result, item.request)))(row);
    const table = element(
      'table',
      {},
      element(
        'tbody',
        {},
        ...rows.map((row) => {
          const { response } = row;
          const answer = response.ok
            ? element(
                'td',
                {},
                element('span', { className: 'answer' }, text(row)),
                element('div', { className: 'cite' }, `${response.result.method}: ${response.result.citation}`),
              )
            : element(
                'td',
                { className: 'error' },
                row.terms ? apiWords(response.error.message, row.terms) : response.error.message,
              );
          return element('tr', {}, element('th', { scope: 'row' }, row.label ?? ''), answer);
        }),
      ),
    );
    const first = rows.find((row) => row.response.ok);
    this.results.replaceChildren(table);
    this.markInvalid(rows);
    this.summary.textContent = first ? `${first.label}: ${text(first)}` : 'No result: see the message below.';
    this.removeAttribute('aria-busy');
    this.dataset.ready = 'true';
    const responses = rows.map((row) => row.response);
    // It bubbles and crosses shadow roots, so a host listens once on its document (or on a
    // component holding the element).
    this.dispatchEvent(new CustomEvent('dpcalc:result', { detail: { responses }, bubbles: true, composed: true }));
  }
}

const failure = (message) => ({ ok: false, error: { message } });

if (!customElements.get('dp-calculator')) customElements.define('dp-calculator', DpCalculator);
