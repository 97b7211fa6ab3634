// The export bar under each section: its permalink (a link, and a button that copies it), the JSON
// of every request and response behind the numbers shown, a LaTeX snippet of each method's result
// with its formula, the BibTeX of every work cited, and a snippet that embeds the section elsewhere.
// Everything is read from what the section shows, so a new section gets its exports for free.
import { h } from './dom.js';
import { bibtexOf } from './bibliography.js';
import { downloadText } from './download.js';

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
const texSymbols = {
  ε: '\\varepsilon',
  δ: '\\delta',
  ρ: '\\rho',
  '≤': '\\le',
  '≥': '\\ge',
  '∈': '\\in',
  '−': '-',
  '→': '\\to',
  '′': "'",
};

/** A bound as the page prints it ("ε ≤ 2, δ ≤ 9.8487 × 10⁻⁶ at …") in TeX math. */
function texOfText(text) {
  return text
    .replace(
      / × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g,
      (_, power) => ` \\times 10^{${[...power].map((c) => superscriptDigits[c]).join('')}}`,
    )
    .replace(/[εδρ≤≥∈−→′]/g, (c) => `${texSymbols[c]} `)
    .replace(/\b(at|no meaningful guarantee|exact)\b/g, '\\text{$1}')
    .replace(/, /g, ',\\ ')
    .replace(/ +/g, ' ')
    .trim();
}

const texText = (text) => text.replace(/[&%$#_{}]/g, (c) => `\\${c}`).replace(/[–—]/g, '--');

/** LaTeX: one item per method that answered, with its bound, its formula and its citation. */
function latexOf(element, title, permalink) {
  const items = [...element.querySelectorAll('table.methods tbody tr[data-ok="true"]')].map((row) => {
    const label = row.querySelector('.row-label')?.textContent ?? '';
    const bounds = [...row.querySelectorAll('.answer .bound')]
      .map((bound) => texOfText(bound.textContent))
      .join(' \\to ');
    const formula = row.querySelector('.formula[data-tex]')?.dataset.tex;
    const citation = row.querySelector('cite')?.textContent;
    return `  \\item ${texText(label)}: $${bounds}$${formula ? `, from $${formula}$` : ''}${citation ? ` (${texText(citation)})` : ''}.`;
  });
  return [
    `% dpcalc: ${title}. Every epsilon, delta and rho is an upper bound, rounded up; a delta after "at" is the given target.`,
    `% ${permalink}`,
    '\\begin{itemize}',
    ...items,
    '\\end{itemize}',
    '',
  ].join('\n');
}

/** The iframe that shows this section alone, and the line of script that sizes it to fit. */
function embedSnippet(section, permalink) {
  const url = new URL(permalink, location.href);
  url.search = '?embed=1';
  return `<iframe src="${url.href}" title="dpcalc: ${section.title}" style="width: 100%; border: 0" height="900"></iframe>
<script>
  // dpcalc posts its height ({ type: 'dpcalc:height', height }) whenever it changes.
  addEventListener('message', (event) => {
    if (event.data?.type !== 'dpcalc:height') return;
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === event.source) frame.style.height = \`\${event.data.height}px\`;
    }
  });
</script>`;
}

/**
 * The bar of section `section` whose <section> is `element`: `log` holds the requests and
 * responses of its last computation; `permalink()` is the address of its current state.
 */
export function exportBar({ section, element, log, permalink }) {
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
  embed.addEventListener('toggle', () => {
    snippet.textContent = embedSnippet(section, permalink());
  });
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
        downloadText(
          `${file}.json`,
          'application/json',
          `${JSON.stringify(
            {
              dpcalc: 'requests and responses behind the numbers shown',
              section: section.name,
              title: section.title,
              permalink: permalink(),
              computations: log.filter((entry) => entry.response !== null),
            },
            null,
            2,
          )}\n`,
        ),
      ),
      button('LaTeX', 'latex', () =>
        downloadText(`${file}.tex`, 'application/x-tex', latexOf(element, section.title, permalink())),
      ),
      button('BibTeX', 'bibtex', () =>
        downloadText(
          `${file}.bib`,
          'application/x-bibtex',
          `${bibtexOf([...element.querySelectorAll('cite')].map((cite) => cite.textContent))}\n`,
        ),
      ),
      status,
    ),
    embed,
  );
}
