// The export bar under each section: its permalink (a link, and a button that copies it), the JSON
// of every request and response behind the numbers shown, the CSV of the attacker panel's trade-off
// curve, a LaTeX snippet of each proven method's result with its formula and \cite keys (it compiles
// with pdflatex and the packages it names, against the BibTeX export), the BibTeX of every work cited
// (by the keys the results carry), the sentence "Cite this result" (with every input of the request
// it states, the version and the permalink), the deployment record of that answer
// (deployment-record.js) and a snippet that embeds the section elsewhere. Everything is read from
// what the section shows, so a new section gets its exports for free.
import { h } from './dom.js';
import { downloadText } from './download.js';
import { attackerCurveCsv } from './attacker.js';
import { chartCsv } from './chart.js';
import { kVersion } from './versions.js';
import { requestWords } from './request-words.js';
import { keysOf } from './citation-keys.js';
import { deploymentRecord, kRegistryCitation, kRegistryKey, recordMarkdown, recordRows } from './deployment-record.js';
import { citeElement } from './results.js';

/** Copies `text` to the clipboard; resolves to true when it worked. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

const superscriptDigits = {
  '⁻': '-',
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
};
// The symbols the page prints, in TeX math: Greek letters, relations, and subscripts.
const mathSymbols = {
  ε: '\\varepsilon',
  δ: '\\delta',
  ρ: '\\rho',
  σ: '\\sigma',
  α: '\\alpha',
  μ: '\\mu',
  Δ: '\\Delta',
  Φ: '\\Phi',
  '≤': '\\le',
  '≥': '\\ge',
  '≈': '\\approx',
  '∈': '\\in',
  '→': '\\to',
  '×': '\\times',
  '·': '\\cdot',
  ℓ: '\\ell',
  '‖': '\\|',
  '√': '\\surd',
  '−': '-',
  '′': "'",
  '₀': '_0',
  '₁': '_1',
};
const kMathSymbol = new RegExp(`[${Object.keys(mathSymbols).join('')}]`, 'g');
const powerOfTen = (power) => `10^{${[...power].map((c) => superscriptDigits[c]).join('')}}`;

/** A bound as the page prints it ("ε ≤ 2, δ ≤ 9.8487 × 10⁻⁶", "ε ≤ 4 at δ = 1 × 10⁻⁵") in TeX math. */
function texOfBound(text) {
  return text
    .replace(/ × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_, power) => ` \\times ${powerOfTen(power)}`)
    .replace(/10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_, power) => powerOfTen(power))
    .replace(/no meaningful guarantee/g, '\\text{no meaningful guarantee}\\ ')
    .replace(/\b(at|exact)\b/g, '\\ \\text{$1}\\ ')
    .replace(kMathSymbol, (c) => `${mathSymbols[c]} `)
    .replace(/, /g, ',\\ ')
    .replace(/ +/g, ' ')
    .trim();
}

/**
 * Text for LaTeX's text mode: its special characters escaped, dashes as TeX writes them, and the
 * page's symbols in math mode, so that it compiles with pdflatex as it is (accented Latin letters
 * are read as UTF-8, LaTeX's default input encoding since 2018).
 */
export function texText(text) {
  return text
    .replace(/[\\{}&%$#_^~]/g, (c) => ({ '\\': '\\textbackslash{}', '^': '\\^{}', '~': '\\~{}' })[c] ?? `\\${c}`)
    .replace(/ × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_, power) => `~$\\times ${powerOfTen(power)}$`)
    .replace(/10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_, power) => `$${powerOfTen(power)}$`)
    .replace(/—/g, '---')
    .replace(/–/g, '--')
    .replace(/…/g, '\\dots{}')
    .replace(/[“”]/g, (c) => (c === '“' ? '``' : "''"))
    .replace(/’/g, "'")
    .replace(kMathSymbol, (c) => `$${mathSymbols[c]}$`);
}

/** The packages the LaTeX export needs, as its header says (a test compiles it with exactly these). */
export const kLatexPackages = ['amsmath', 'amssymb'];

/** `keys` as LaTeX cites them: "~\cite{a,b}", or '' without keys. */
const texCite = (keys) => (keys.length ? `~\\cite{${[...new Set(keys)].join(',')}}` : '');

/**
 * The sentence "Cite this result" for `citation` (the headline's sentence, the request it states and
 * its result; mount.js): the sentence, every value of that request in words, the version and the
 * permalink. '' while there is no answer.
 */
export function citedSentence(citation, permalink) {
  if (!citation.sentence) return '';
  const inputs = citation.request ? ` Inputs: ${requestWords(citation.request)}.` : '';
  return `${citation.sentence}${inputs} Computed with dpcalc ${kVersion}: ${permalink}`;
}

/** citedSentence in LaTeX: the \cite keys of the works after the citation in parentheses. */
function texSentence(citation, permalink) {
  const keys = keysOf(citation.result?.citation_key);
  const source = citation.result?.citation && `(${texText(citation.result.citation)})`;
  const statement = texText(citation.sentence);
  const cited =
    source && statement.includes(source)
      ? statement.replace(source, `${source.slice(0, -1)}${texCite(keys)})`)
      : statement.replace(/\.?$/, `${texCite(keys)}.`);
  const inputs = citation.request ? ` Inputs: ${texText(requestWords(citation.request))}.` : '';
  return `${cited}${inputs} Computed with dpcalc ${kVersion}: ${texText(permalink)}`;
}

/** A row of a method table in LaTeX: its label, bound, formula and citation with its \cite keys. */
function latexItem(row) {
  const label = row.querySelector('.row-label')?.textContent ?? '';
  const bounds = [...row.querySelectorAll('.answer .bound')]
    .map((bound) => texOfBound(bound.textContent))
    .join(' \\to ');
  const formula = row.querySelector('.formula[data-tex]')?.dataset.tex;
  const cite = row.querySelector('cite');
  const keys = cite?.dataset.keys ? cite.dataset.keys.split(' ') : [];
  const citation = cite ? ` (${texText(cite.textContent)}${texCite(keys)})` : '';
  const example = row.querySelector('.example-note')?.textContent;
  const said = bounds ? `: $${bounds}$` : '';
  return `  \\item ${texText(label)}${example ? ` (${texText(example)})` : ''}${said}${formula ? `, from $${formula}$` : ''}${citation}.`;
}

/**
 * LaTeX: the citable sentence, then one item per method that answered with a proven bound (its
 * bound, formula and citation); the rows that are not proven (an over-approximation, a rule of
 * thumb, a bound that rests on an assumption) are named in a comment and left out.
 */
function latexOf(element, { title, name }, permalink, citation) {
  const answered = [...element.querySelectorAll('table.methods tbody tr[data-ok="true"]')];
  const items = answered.filter((row) => row.dataset.proven !== 'false').map(latexItem);
  const leftOut = answered
    .filter((row) => row.dataset.proven === 'false')
    .map((row) => (row.querySelector('.row-label')?.textContent ?? '').replace(/\s+/g, ' '))
    .join('; ');
  // The sentences of "What an attacker can do" (attacker.js), each an upper bound in words.
  const attacker = [...element.querySelectorAll('[data-attacker-sentences] p')].map((p) => texText(p.textContent));
  return [
    `% dpcalc ${kVersion}: ${title}. Every epsilon, delta and rho is an upper bound, rounded up; a delta after "at" is the given target.`,
    `% ${permalink}`,
    `% Needs in the preamble: ${kLatexPackages.map((package_) => `\\usepackage{${package_}}`).join(' ')}`,
    `% \\cite keys: the entries of this section's BibTeX export (dpcalc-${name}.bib).`,
    ...(leftOut ? [`% Left out, not proven: ${leftOut}.`] : []),
    ...(citation.sentence ? [texSentence(citation, permalink), ''] : []),
    ...(items.length ? ['\\begin{itemize}', ...items, '\\end{itemize}'] : []),
    ...(attacker.length ? ['', `\\textbf{What an attacker can do.} ${attacker.join(' ')}`] : []),
    '',
  ].join('\n');
}

/** The iframe that shows this section alone, and the script (a file: no inline code) that sizes it to fit. */
function embedSnippet(section, permalink) {
  const url = new URL(permalink, location.href);
  url.search = '?embed=1';
  const resizer = new URL('dpcalc-frame.js', url);
  resizer.hash = '';
  resizer.search = '';
  return `<iframe src="${url.href}" title="dpcalc: ${section.title}" width="100%" height="900"></iframe>
<!-- Sizes the frame to the height dpcalc posts ({ type: 'dpcalc:height', height }); once per page. -->
<script src="${resizer.href}" defer></script>`;
}

/**
 * Calls `fill` as the <details> box opens: on the click of its summary (mouse or keyboard), so the
 * content is there when the box shows, and on 'toggle' (which the browser queues after the box has
 * opened) for a box opened by a script.
 */
function fillWhenOpened(box, fill) {
  box.querySelector('summary').addEventListener('click', fill);
  box.addEventListener('toggle', fill);
}

/**
 * "Cite this result": the sentence of the section's current headline (set by the section with its
 * summary, see headline.js), to read and copy. Kept current while it is open.
 */
function citeBox(citation, permalink) {
  const sentence = h('p', { class: 'cite-sentence', dataset: { citeSentence: '' } });
  const status = h('span', { class: 'export-status', role: 'status' });
  const copy = h('button', { type: 'button', class: 'secondary small', dataset: { exportAction: 'cite' } }, 'Copy');
  const box = h(
    'details',
    { class: 'cite-result' },
    h('summary', {}, 'Cite this result'),
    h(
      'p',
      { class: 'note' },
      'One sentence for a paper: the numbers (rounded outwards), the method and its source; then every input of the answer, the version and the permalink that reproduce it.',
    ),
    sentence,
    h('div', { class: 'export-actions' }, copy, status),
  );
  const refresh = () => {
    sentence.textContent =
      citedSentence(citation, permalink()) || 'No result to cite yet: the section has no answer for these inputs.';
    status.textContent = '';
  };
  citation.onChange = () => {
    if (box.open) refresh();
  };
  fillWhenOpened(box, refresh);
  copy.addEventListener('click', async () => {
    status.textContent = (await copyText(citedSentence(citation, permalink())))
      ? 'Sentence copied.'
      : 'Copying failed: select the sentence.';
  });
  return box;
}

/**
 * "Deployment record": the answer the sentence states in the fields of the DP Deployments Registry
 * (deployment-record.js), shown as a table and downloaded as JSON or Markdown. Kept current while open.
 */
function recordBox({ section, citation, permalink }) {
  const table = h('div', { class: 'table-wrap', dataset: { deploymentRecord: section.name } });
  const status = h('span', { class: 'export-status', role: 'status' });
  const file = `dpcalc-${section.name}-deployment-record`;
  const current = () =>
    deploymentRecord({ section, request: citation.request, result: citation.result, permalink: permalink() });
  const download = (exportName, label, save) => {
    const control = h(
      'button',
      { type: 'button', class: 'secondary small', dataset: { exportAction: exportName } },
      label,
    );
    control.addEventListener('click', () => {
      const record = current();
      status.textContent = record.unavailable ?? '';
      if (!record.unavailable) save(record);
    });
    return control;
  };
  const box = h(
    'details',
    { class: 'deployment-record' },
    h('summary', {}, 'Deployment record'),
    h(
      'p',
      { class: 'note' },
      'This answer in the fields of the DP Deployments Registry (',
      citeElement(kRegistryCitation, [kRegistryKey]),
      '), to file a release as NIST SP 800-226 asks.',
    ),
    table,
    h(
      'div',
      { class: 'export-actions' },
      download('record-json', 'Record JSON', (record) =>
        downloadText(`${file}.json`, 'application/json', `${JSON.stringify(record, null, 2)}\n`),
      ),
      download('record-markdown', 'Record table (Markdown)', (record) =>
        downloadText(`${file}.md`, 'text/markdown', recordMarkdown(record)),
      ),
      status,
    ),
  );
  const refresh = () => {
    const record = current();
    status.textContent = '';
    if (record.unavailable) {
      table.replaceChildren(h('p', {}, record.unavailable));
      return;
    }
    const rows = recordRows(record).map(([field, value]) =>
      h('tr', {}, h('th', { scope: 'row' }, field), h('td', {}, value)),
    );
    table.replaceChildren(h('table', { class: 'record' }, h('caption', {}, 'Deployment record'), h('tbody', {}, rows)));
  };
  const previous = citation.onChange;
  citation.onChange = () => {
    previous?.();
    if (box.open) refresh();
  };
  fillWhenOpened(box, refresh);
  return box;
}

/**
 * The JSON export: the requests and responses of the last computation (`log`), with the permalink,
 * the version, and the sentence "Cite this result" with the request whose answer it states.
 */
function jsonExport(section, log, permalink, citation) {
  const computations = log.filter((entry) => entry.response !== null);
  const exported = {
    dpcalc: 'requests and responses behind the numbers shown',
    version: kVersion,
    section: section.name,
    title: section.title,
    permalink,
    cited: { sentence: citedSentence(citation, permalink), request: citation.request },
    computations,
  };
  return `${JSON.stringify(exported, null, 2)}\n`;
}

/**
 * The bar of section `section` whose <section> is `element`: `log` holds the requests and
 * responses of its last computation; `permalink()` is the address of its current state;
 * `citation.sentence` the sentence of its headline.
 */
export function exportBar({ section, element, citation, log, permalink }) {
  const status = h('span', { class: 'export-status', role: 'status' });
  const button = (label, exportName, action) => {
    const control = h(
      'button',
      { type: 'button', class: 'secondary small', dataset: { exportAction: exportName } },
      label,
    );
    control.addEventListener('click', async () => {
      status.textContent = (await action()) ?? '';
    });
    return control;
  };
  const file = `dpcalc-${section.name}`;
  // Its href is kept current by the page (main.js), as the address bar is.
  const link = h('a', { class: 'permalink', href: '#', dataset: { permalink: section.name } }, 'Permalink');
  const snippet = h('code', {});
  const embed = h(
    'details',
    { class: 'embed-snippet' },
    h('summary', {}, 'Embed this section'),
    h('p', {}, 'Paste this into your page: it shows this section, with these inputs, and grows to fit.'),
    h('pre', { tabindex: '0', role: 'region', 'aria-label': 'Embed snippet' }, snippet),
  );
  fillWhenOpened(embed, () => {
    snippet.textContent = embedSnippet(section, permalink());
  });
  const citedKeys = () =>
    [...element.querySelectorAll('cite[data-keys]')].flatMap((cite) => cite.dataset.keys.split(' '));
  return h(
    'div',
    { class: 'export-bar', dataset: { export: section.name } },
    h(
      'div',
      { class: 'export-actions' },
      link,
      button('Copy link', 'link', async () =>
        (await copyText(permalink())) ? 'Link copied.' : 'Copying failed: use the Permalink link.',
      ),
      button('JSON', 'json', () =>
        downloadText(`${file}.json`, 'application/json', jsonExport(section, log, permalink(), citation)),
      ),
      button('LaTeX', 'latex', () =>
        downloadText(`${file}.tex`, 'application/x-tex', latexOf(element, section, permalink(), citation)),
      ),
      button('Curve CSV', 'curve', () => {
        // The trade-off curve of "What an attacker can do" (or, in a section without that panel, such
        // as the Audit, the trade-off figure it draws itself), as its chart's own CSV button gives it.
        const figure = element.querySelector('[data-plots] figure.chart[data-tradeoff]');
        const curve = attackerCurveCsv(element) ?? (figure ? chartCsv(figure) : undefined);
        if (!curve) return 'No curve yet: the attacker panel shows none for these inputs.';
        downloadText(`${curve.file}.csv`, 'text/csv', curve.text());
        return '';
      }),
      button('BibTeX', 'bibtex', async () => {
        // The entries load when first asked for, so that the page's first answer does not wait for them.
        const { bibtexOf } = await import('./bibliography.js');
        downloadText(`${file}.bib`, 'application/x-bibtex', `${bibtexOf(citedKeys())}\n`);
      }),
      status,
    ),
    citeBox(citation, permalink),
    recordBox({ section, citation, permalink }),
    embed,
  );
}
