// <dp-calculator>: one calculator section as a custom element, for other people's pages.
//   <script type="module" src="https://…/dpcalc/dp-calculator.js"></script>
//   <dp-calculator section="group" k="8" epsilon="1" delta="1e-6"></dp-calculator>
// Every section of the page has its element form (sections.js: the page's nine questions, each
// with a few inputs); any other request goes in the `request` attribute as JSON. The attributes are
// the inputs (the element shows them as fields and writes edits back to them); the answer of each
// method is shown with its citation. Styles live in a constructed stylesheet of
// the shadow root and nothing is evaluated, so a host page with a strict Content-Security-Policy
// only has to allow this script's origin (and 'wasm-unsafe-eval' if workers cannot start; see the
// README). Every number shown is an upper bound, rounded up, unless it says otherwise.
import { createWorkerCalculator } from '../client.js';
import { formatNumber } from '../app/format.js';
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
.cite { font-size: 0.8rem; opacity: 0.8; }
.summary { font-weight: 600; }
@media (prefers-color-scheme: dark) { .error { color: #ff8a80; } }
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

/** "ε ≤ 8, δ ≤ 0.0017343": every bound rounded up; a δ that was an input shown as "at δ = …". */
function answerText(result, request) {
  if (result.vacuous) return 'no meaningful guarantee (δ ≥ 1)';
  const g = result.guarantee ?? (result.per_item && { type: 'approx', ...result.per_item });
  if (!g) return JSON.stringify(result);
  const perStep = request.op === 'split';
  const relation = perStep ? '=' : '≤';
  const direction = perStep ? 'down' : 'up'; // a budget you may spend is rounded down
  if (g.type === 'zcdp') return `ρ ${relation} ${formatNumber(g.rho, direction)}`;
  const parts = [`ε ${relation} ${formatNumber(g.epsilon, direction)}`];
  const deltaGiven = typeof request.delta === 'number' && request.op !== 'split';
  if (g.type === 'approx')
    parts.push(
      deltaGiven ? `at δ = ${formatNumber(g.delta, 'down')}` : `δ ${relation} ${formatNumber(g.delta, direction)}`,
    );
  return parts.join(deltaGiven ? ' ' : ', ') + (perStep ? ' per step' : '');
}

class DpCalculator extends HTMLElement {
  static get observedAttributes() {
    return [
      'section',
      'request',
      ...new Set(Object.values(sections).flatMap((section) => section.inputs.map((input) => input.name))),
    ];
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

  /** The section's inputs shown: those set as attributes, or all its defaults when none is. */
  shownInputs(section) {
    const given = section.inputs.filter((input) => this.hasAttribute(input.name));
    const defaults = section.inputs.filter((input) => input.fallback !== '' && !given.includes(input));
    // Where the inputs are alternatives (a guarantee or a mechanism), those set are the question;
    // elsewhere every input the question needs is shown, with its default until set.
    if (section.alternatives) return given.length > 0 ? given : defaults;
    return section.inputs.filter((input) => given.includes(input) || defaults.includes(input));
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
    for (const input of this.shownInputs(section)) {
      const field = element('input', {
        type: 'text',
        inputMode: 'text',
        autocomplete: 'off',
        spellcheck: false,
        name: input.name,
        value: this.getAttribute(input.name) ?? input.fallback,
      });
      field.addEventListener('input', () => this.setAttribute(input.name, field.value));
      form.append(element('label', {}, input.label, field));
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

  values(section) {
    const values = {};
    for (const input of this.shownInputs(section)) {
      const text = (this.getAttribute(input.name) ?? input.fallback).trim();
      if (text !== '') values[input.name] = input.text ? text : Number(text);
    }
    return values;
  }

  requests() {
    if (this.hasAttribute('request')) {
      try {
        return [['Result', JSON.parse(this.getAttribute('request'))]];
      } catch (error) {
        return [['Result', null, `The request attribute is not JSON: ${error.message}`]];
      }
    }
    const section = this.section();
    return section ? section.rows(this.values(section)) : [];
  }

  async update() {
    const generation = ++this.generation;
    this.controller?.abort();
    this.controller = new AbortController();
    const rows = this.requests();
    this.setAttribute('aria-busy', 'true');
    const failure = (message) => ({ ok: false, error: { message } });
    const responses = await Promise.all(
      rows.map(([, request, problem]) =>
        request === null
          ? failure(problem)
          : calculator()
              .run(request, { signal: this.controller.signal })
              .catch((error) => failure(error?.message ?? String(error))),
      ),
    );
    if (generation !== this.generation) return;
    const table = element(
      'table',
      {},
      element(
        'tbody',
        {},
        ...rows.map(([label, request, describe = answerText], i) => {
          const response = responses[i];
          const answer = response.ok
            ? element(
                'td',
                {},
                element('span', { className: 'answer' }, describe(response.result, request)),
                element('div', { className: 'cite' }, `${response.result.method}: ${response.result.citation}`),
              )
            : element('td', { className: 'error' }, response.error.message);
          return element('tr', {}, element('th', { scope: 'row' }, label), answer);
        }),
      ),
    );
    const first = responses.findIndex((response) => response.ok);
    this.results.replaceChildren(table);
    const [firstLabel, firstRequest, describeFirst = answerText] = rows[first] ?? [];
    this.summary.textContent =
      first < 0
        ? 'No result: see the message below.'
        : `${firstLabel}: ${describeFirst(responses[first].result, firstRequest)}`;
    this.removeAttribute('aria-busy');
    this.dataset.ready = 'true';
    this.dispatchEvent(new CustomEvent('dpcalc:result', { detail: { responses } }));
  }
}

if (!customElements.get('dp-calculator')) customElements.define('dp-calculator', DpCalculator);
