// <dp-calculator>: one calculator section as a custom element, for other people's pages.
//   <script type="module" src="https://…/dpcalc/dp-calculator.js"></script>
//   <dp-calculator section="group" k="8" epsilon="1" delta="1e-6"></dp-calculator>
// The attributes are the inputs (the element shows them as fields and writes edits back to them);
// the answer of each method is shown with its citation. Styles live in a constructed stylesheet of
// the shadow root and nothing is evaluated, so a host page with a strict Content-Security-Policy
// only has to allow this script's origin (and 'wasm-unsafe-eval' if workers cannot start; see the
// README). Every number shown is an upper bound, rounded up, unless it says otherwise.
import { createWorkerCalculator } from '../client.js';
import { formatNumber } from '../app/format.js';

const attr = (name, label, fallback) => ({ name, label, fallback });

// Each section: its question, its inputs (attribute, label, default), and the requests it answers with.
const sections = {
  group: {
    title: 'Group privacy',
    question: 'What does a per-record guarantee give a person who contributes k records?',
    inputs: [
      attr('k', 'group size k', '4'),
      attr('epsilon', 'ε per record', '0.5'),
      attr('delta', 'δ per record', '1e-6'),
      attr('rho', 'ρ per record (zCDP)', ''),
      attr('scale', 'Laplace scale b', ''),
      attr('sigma', 'Gaussian σ', ''),
      attr('sensitivity', 'sensitivity Δ', '1'),
    ],
    rows(v) {
      const rows = [];
      const k = v.k;
      if (v.epsilon !== undefined) {
        rows.push(
          v.delta === undefined || v.delta === 0
            ? ['Pure ε-DP', { op: 'group', k, guarantee: { type: 'pure', epsilon: v.epsilon } }]
            : [
                'Approximate (ε, δ)-DP',
                { op: 'group', k, guarantee: { type: 'approx', epsilon: v.epsilon, delta: v.delta } },
              ],
        );
      }
      if (v.rho !== undefined) rows.push(['ρ-zCDP', { op: 'group', k, guarantee: { type: 'zcdp', rho: v.rho } }]);
      if (v.scale !== undefined) {
        rows.push([
          'Laplace mechanism',
          { op: 'group', k, mechanism: { type: 'laplace', scale: v.scale, sensitivity: v.sensitivity } },
        ]);
      }
      if (v.sigma !== undefined) {
        rows.push([
          `Gaussian mechanism at δ = ${v.delta ?? 1e-5}`,
          {
            op: 'group',
            k,
            delta: v.delta ?? 1e-5,
            mechanism: { type: 'gaussian', sigma: v.sigma, sensitivity: v.sensitivity },
          },
        ]);
      }
      return rows;
    },
  },
  composition: {
    title: 'Composition',
    question: 'What do k mechanisms on the same data give together?',
    inputs: [
      attr('count', 'number of mechanisms k', '100'),
      attr('epsilon', 'ε₀ per mechanism', '0.1'),
      attr('item-delta', 'δ₀ per mechanism', '0'),
      attr('sigma', 'Gaussian σ', ''),
      attr('rate', 'sampling rate q', ''),
      attr('sensitivity', 'sensitivity Δ', '1'),
      attr('delta', 'target total δ', '1e-5'),
    ],
    rows(v) {
      const count = v.count;
      if (v.sigma !== undefined) {
        const gaussian = { type: 'gaussian', sigma: v.sigma, sensitivity: v.sensitivity };
        const mechanism =
          v.rate === undefined ? gaussian : { type: 'poisson_subsampled', rate: v.rate, mechanism: gaussian };
        const rows = [
          [
            'Privacy loss distributions (numeric)',
            { op: 'compose', method: 'pld', delta: v.delta, items: [{ mechanism, count }] },
          ],
        ];
        if (v.rate === undefined)
          rows.push(['zCDP', { op: 'compose', method: 'zcdp', delta: v.delta, items: [{ mechanism, count }] }]);
        return rows;
      }
      const items = [
        {
          guarantee: v['item-delta']
            ? { type: 'approx', epsilon: v.epsilon, delta: v['item-delta'] }
            : { type: 'pure', epsilon: v.epsilon },
          count,
        },
      ];
      return [
        ['Basic composition', { op: 'compose', method: 'basic', items }],
        [
          'Advanced composition (Kairouz–Oh–Viswanath)',
          { op: 'compose', method: 'advanced', variant: 'kairouz', delta: v.delta, items },
        ],
        ['Optimal composition', { op: 'compose', method: 'optimal', delta: v.delta, items }],
      ];
    },
  },
  split: {
    title: 'Budget split',
    question: 'How large may each of k steps be for a total (ε, δ)?',
    inputs: [
      attr('epsilon', 'total ε', '1'),
      attr('delta', 'total δ', '1e-5'),
      attr('count', 'number of steps k', '100'),
    ],
    rows(v) {
      const request = (method, extra = {}) => ({
        op: 'split',
        method,
        ...extra,
        target: { epsilon: v.epsilon, delta: v.delta },
        count: v.count,
      });
      return [
        ['Basic composition', request('basic')],
        ['Advanced (Kairouz–Oh–Viswanath)', request('advanced', { variant: 'kairouz' })],
        ['zCDP', request('zcdp')],
      ];
    },
  },
  convert: {
    title: 'zCDP to (ε, δ)',
    question: 'What (ε, δ) does a ρ-zCDP guarantee give?',
    inputs: [attr('rho', 'ρ', '0.5'), attr('delta', 'δ', '1e-6')],
    rows: (v) => [
      ['Conversion', { op: 'convert', guarantee: { type: 'zcdp', rho: v.rho }, to: 'approx', delta: v.delta }],
    ],
  },
};

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
    return given.length > 0 ? given : section.inputs.filter((input) => input.fallback !== '');
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
      if (text !== '') values[input.name] = Number(text);
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
        ...rows.map(([label, request], i) => {
          const response = responses[i];
          const answer = response.ok
            ? element(
                'td',
                {},
                element('span', { className: 'answer' }, answerText(response.result, request)),
                element('div', { className: 'cite' }, `${response.result.method}: ${response.result.citation}`),
              )
            : element('td', { className: 'error' }, response.error.message);
          return element('tr', {}, element('th', { scope: 'row' }, label), answer);
        }),
      ),
    );
    const first = responses.findIndex((response) => response.ok);
    this.results.replaceChildren(table);
    this.summary.textContent =
      first < 0
        ? 'No result: see the message below.'
        : `${rows[first][0]}: ${answerText(responses[first].result, rows[first][1])}`;
    this.removeAttribute('aria-busy');
    this.dataset.ready = 'true';
    this.dispatchEvent(new CustomEvent('dpcalc:result', { detail: { responses } }));
  }
}

if (!customElements.get('dp-calculator')) customElements.define('dp-calculator', DpCalculator);
