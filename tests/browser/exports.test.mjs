// The exports of every section: the link, the JSON of every request and response, a CSV per chart
// whose headers name their quantities, LaTeX that compiles as given (pdflatex with the packages its
// header names; skipped with a note when pdflatex is not installed), BibTeX with a real entry for
// every work cited (found by the keys the results carry), and the "Cite this result" sentence.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  axeViolations,
  coreSchema,
  goToSection,
  openPage,
  sessionForFile,
  waitForAllSections,
  waitForBound,
} from './helpers.mjs';
import { sections as sectionRequests } from '../../web/embed/sections.js';
import { choiceWords, fieldName } from '../../web/app/request-words.js';
import { givenNumber } from '../../web/app/headline.js';
import { kVersion } from '../../web/app/versions.js';

// One page for the tests that go through every section (CSV headers, BibTeX, LaTeX): each section
// is reached by its link and computes once, not once per test. Closed before the browser is.
let shared;
after(() => shared?.context.close());
const session = sessionForFile();

const kTimeout = { timeout: 300_000 };
const kSections = [
  'group',
  'composition',
  'split',
  'calibrate',
  'convert',
  'kmeans',
  'dpsgd',
  'databases',
  'groupwise',
];
// Short numeric work where a section has some: the exports are what is tested here.
const kLinks = {
  dpsgd: '#/dpsgd?v=0.2.0&duration=steps&steps=100&kmax=2',
  groupwise: '#/groupwise?v=0.2.0&samples=10000&counts=100%2C1000&group=1000',
  databases: '#/databases?v=0.2.0&a_count=200&m=20',
};

async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** The shared page showing section `name` (its link in kLinks, or its plain route), its numeric work done. */
async function openSection(name, { explains = true, link = kLinks[name] ?? `#/${name}` } = {}) {
  shared ??= await openPage(session);
  const { page } = shared;
  await page.goto(`${session.url}${link}`);
  await page.waitForSelector(`section#${name}:not([hidden])`);
  await waitForAllSections(page);
  await page.waitForFunction(
    () => !document.querySelector('section:not([hidden]) [data-numeric-status][data-state="running"]'),
    null,
    { timeout: 200_000 },
  );
  // Every section here but the audit explains its answer: the panel adds its own citations to the BibTeX.
  if (!explains) {
    await page.waitForSelector(`section#${name} [data-results][data-ready="true"]:not([aria-busy])`);
    return shared;
  }
  await page.waitForSelector('section:not([hidden]) [data-attacker][data-ready="true"]:not([aria-busy])', {
    timeout: 200_000,
  });
  return shared;
}

test('copy link, JSON of requests and responses, and a CSV per chart that names its quantities', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.origin });
    await page.fill('#group-k', '8');
    await waitForBound(page, 'group', 'pure', 'ε ≤ 4');
    await page.click('#group [data-export-action="link"]');
    await page.waitForSelector('#group .export-status:text("Link copied.")');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${session.url}${await page.evaluate(() => location.hash)}`);
    assert.match(copied, /#\/group\?v=0\.3\.0&k=8$/);

    const json = await download(page, '#group [data-export-action="json"]');
    assert.equal(json.name, 'dpcalc-group.json');
    const exported = JSON.parse(json.text);
    const pure = exported.computations.find(
      (entry) => entry.request.k === 8 && entry.request.guarantee?.type === 'pure',
    );
    assert.deepEqual(pure.response.result.guarantee, { type: 'pure', epsilon: 4 });

    const csv = await download(page, '[data-plots="group"] figure:first-child [data-csv]');
    assert.equal(csv.name, 'dpcalc-group-parameters.csv');
    const lines = csv.text.trim().split('\n');
    assert.equal(
      lines[0],
      'series,group size k,kind of group size k,privacy parameter of the group: ε (pure DP and Gaussian) or ρ (zCDP),kind of privacy parameter of the group: ε (pure DP and Gaussian) or ρ (zCDP)',
    );
    // Dwork & Roth 2014, Thm 2.2: kε = 8 × 0.5.
    assert.ok(lines.includes('pure ε = kε,8,given,4,upper bound'), lines.slice(0, 5).join(' / '));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every chart of every section: CSV headers are quantities in words, not bare symbols', kTimeout, async () => {
  for (const name of kSections) {
    const { page } = await openSection(name);
    for (const button of await page.locator(`[data-plots="${name}"] [data-csv]`).all()) {
      const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
      const header = csvCells((await readFile(await file.path(), 'utf8')).split('\n')[0]);
      assert.equal(header.length, 5, `${name}: ${header}`);
      for (const cell of header.slice(1))
        assert.match(cell, /[a-z]{3,}.*[a-z]{3,}/i, `${name} ${file.suggestedFilename()}: "${cell}" names a quantity`);
    }
  }
});

/** The cells of one CSV line (RFC 4180: a cell in double quotes may hold commas and doubled quotes). */
function csvCells(line) {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) =>
    cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell,
  );
}

const bibtexEntries = (text) => text.split(/\n(?=@)/).filter((entry) => entry.startsWith('@'));

test('BibTeX: a real entry for every work every section cites, joined by citation key', kTimeout, async () => {
  for (const name of kSections) {
    const { page, problems } = await openSection(name);
    const keys = await page.$$eval(`#${name} cite`, (cites) => cites.map((cite) => cite.dataset.keys ?? ''));
    assert.ok(keys.length > 0, `${name} cites its methods`);
    assert.ok(
      keys.every((value) => /^[a-z0-9]+( [a-z0-9]+)*$/.test(value)),
      `${name}: every citation has keys: ${keys}`,
    );
    const bibtex = await download(page, `#${name} [data-export-action="bibtex"]`);
    const entries = bibtexEntries(bibtex.text);
    assert.equal(
      entries.length,
      new Set(keys.flatMap((value) => value.split(' '))).size,
      `${name}: one entry per work`,
    );
    for (const entry of entries) {
      const key = /^@\w+\{(\w+),/.exec(entry)?.[1];
      assert.ok(key, entry.slice(0, 60));
      for (const field of ['author', 'title', 'year'])
        assert.match(entry, new RegExp(`\\b${field} = \\{[^}]`), `${name} ${key}: ${field}`);
      assert.match(entry, /\b(booktitle|journal|howpublished|publisher) = \{/, `${name} ${key}: where it appeared`);
      assert.doesNotMatch(entry, /dpcalc_cited|seed/i, `${name} ${key}`);
    }
    assert.deepEqual(problems, []);
  }
});

/** Whether pdflatex runs here (Debian: texlive-latex-base). */
const hasPdflatex = spawnSync('pdflatex', ['--version']).status === 0;
const hasBibtex = spawnSync('bibtex', ['--version']).status === 0;

test(
  'LaTeX of every section compiles with pdflatex and the packages it names',
  { ...kTimeout, skip: hasPdflatex ? false : 'pdflatex is not installed (apt-get install texlive-latex-base)' },
  async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'dpcalc-latex-'));
    try {
      for (const name of kSections) {
        const { page, problems } = await openSection(name);
        const latex = await download(page, `#${name} [data-export-action="latex"]`);
        const bibtex = await download(page, `#${name} [data-export-action="bibtex"]`);
        const needs = /^% Needs in the preamble: (.*)$/m.exec(latex.text);
        assert.ok(needs, `${name}: the export names the packages it needs`);
        // With the section's BibTeX export as the bibliography (pdflatex, bibtex, pdflatex twice).
        const document = `\\documentclass{article}\n${needs[1]}\n\\begin{document}\n${latex.text}\n\\bibliographystyle{plain}\n\\bibliography{${name}-works}\n\\end{document}\n`;
        writeFileSync(path.join(folder, `${name}.tex`), document);
        writeFileSync(path.join(folder, `${name}-works.bib`), bibtex.text);
        const latexRun = () =>
          spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', `${name}.tex`], {
            cwd: folder,
            encoding: 'utf8',
          });
        let run = latexRun();
        if (hasBibtex && run.status === 0) {
          const bib = spawnSync('bibtex', [name], { cwd: folder, encoding: 'utf8' });
          assert.equal(bib.status, 0, `${name}: bibtex: ${bib.stdout}`);
          latexRun();
          run = latexRun();
        }
        const log = readFileSync(path.join(folder, `${name}.log`), 'utf8');
        // Every \\cite key has its entry in the BibTeX export.
        if (hasBibtex) assert.doesNotMatch(log, /Citation `[^']*' .*undefined/, name);
        assert.equal(
          run.status,
          0,
          `${name}: ${log
            .split('\n')
            .filter((line) => line.startsWith('!'))
            .join(' | ')}`,
        );
        assert.doesNotMatch(log, /^! |Missing character/m, name);
        if (await page.locator(`#${name} table.methods`).count())
          assert.match(latex.text, /\\item /, `${name}: one item per method`);
        // Spacing: "at" is a word of its own, not glued to the number before it.
        assert.doesNotMatch(latex.text, /[\d}]\s*\\text\{at\}/, name);
        assert.deepEqual(problems, []);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);

test('"Cite this result": one sentence with the numbers, the method and its source', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group?k=8&epsilon=1&delta=1e-6' });
  try {
    await waitForAllSections(page);
    await page.click('#group .cite-result summary');
    // Vadhan 2017, Lemma 2.2: (8, 0.00173427), rounded up to 3 digits for a sentence; then the
    // request's inputs, the version and the permalink.
    assert.equal(
      await page.locator('#group [data-cite-sentence]').textContent(),
      'A group of 8 records satisfies (8, 0.00174)-DP when each record is (1, 10⁻⁶)-DP, by group privacy (approximate DP) (Vadhan 2017, Lemma 2.2). ' +
        `Inputs: group size k = 8, approximate DP with ε = 1, δ = 10⁻⁶. Computed with dpcalc ${kVersion}: ` +
        `${session.url}#/group?v=${kVersion}&k=8&epsilon=1&delta=1e-6`,
    );
    // It follows the inputs while open.
    await page.fill('#group-k', '2');
    await page.waitForFunction(() =>
      document
        .querySelector('#group [data-cite-sentence]')
        .textContent.startsWith('A group of 2 records satisfies (2, '),
    );
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.origin });
    await page.click('#group [data-export-action="cite"]');
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^A group of 2 records satisfies/);

    await goToSection(page, 'dpsgd');
    await page.selectOption('#dpsgd-duration', 'steps');
    await page.fill('#dpsgd-steps', '100');
    await page.fill('#dpsgd-group-size', '5');
    // Open while the answer is computed: the sentence follows the new headline once it is there.
    await page.click('#dpsgd .cite-result summary');
    await page.waitForFunction(
      () => /groups of 5 examples/.test(document.querySelector('#dpsgd [data-cite-sentence]').textContent),
      null,
      { timeout: 200_000 },
    );
    assert.match(
      await page.locator('#dpsgd [data-cite-sentence]').textContent(),
      /^Training with DP-SGD \(noise multiplier 1\.1, 100 steps, Poisson sampling, q = B\/N = 256\/60000\) satisfies \([\d.]+, 10⁻⁵\)-DP for groups of 5 examples, by the tight accounting of the worst-case pair \(Schuchardt, Stoian, Kosmala, Günnemann 2024; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022\)\. Inputs: group size k = 5, δ = 10⁻⁵, batch sampling: Poisson sampling, neighbouring relation: one record zeroed out, dataset size N = 60000, batch size B = 256, steps = 100, noise multiplier σ = 1\.1\. /,
    );
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// The packages the LaTeX header names are what the test compiles with; pdflatex itself is checked
// once here so that a missing TeX is reported rather than silently skipped.
test('pdflatex availability is reported', () => {
  if (!hasPdflatex) console.log('# note: pdflatex is not installed; the LaTeX compile test was skipped');
  else assert.match(execFileSync('pdflatex', ['--version'], { encoding: 'utf8' }), /pdfTeX/);
});

/** The leaves of `value` ([path, value, key]) but `op` and the attacker panel's `explain`: the values that decide the answer. */
function leaves(value, path = '', key = '') {
  if (Array.isArray(value)) return value.flatMap((element, i) => leaves(element, `${path}.${i}`, key));
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .filter(([name]) => !(path === '' && (name === 'op' || name === 'explain')))
      .flatMap(([name, element]) => leaves(element, path ? `${path}.${name}` : name, name));
  return [[path, value, key]];
}

/** A leaf as the sentence must say it: numbers as the page writes them, choices by their names. */
function leafWords(value, key) {
  if (typeof value === 'number') return givenNumber(value);
  if (typeof value === 'boolean') return `${fieldName(key)}: ${value ? 'yes' : 'no'}`;
  return choiceWords(value);
}

/** Whether every leaf of `part` has the same value in `whole` (a request a retry rule added a field to). */
const isPartOf = (part, whole) =>
  leaves(part).every(([path, value]) =>
    isDeepStrictEqual(
      path.split('.').reduce((v, k) => v?.[k], whole),
      value,
    ),
  );

test(
  '"Cite this result" of every section: every input of the request it states, the version and the permalink',
  kTimeout,
  async () => {
    const schema = await coreSchema();
    const catalog = { types: schema.mechanisms, schema };
    // Every section, and the questions that solve for a value (their sentence states the bound at it).
    const solving = [
      ['group', '#/group?v=0.3.0&question=largest_k'],
      ['composition', '#/composition?v=0.3.0&question=most_releases'],
      ['dpsgd', '#/dpsgd?v=0.3.0&mode=most_steps&dataset_size=6000'],
    ];
    try {
      for (const [name, link] of [...[...kSections, 'audit'].map((each) => [each]), ...solving])
        await checkCited(name, link, catalog);
    } finally {
      // The visit remembers the questions asked: the tests after this one start on a fresh page.
      await shared?.context.close();
      shared = undefined;
    }
  },
);

/** The check of the test above for section `name` (at `link`, or its kLinks one). */
async function checkCited(name, link, catalog) {
  const { page, problems } = await openSection(name, { explains: name !== 'audit' && !link, link });
  await page.click(`#${name} .cite-result summary`);
  const sentence = await page.locator(`#${name} [data-cite-sentence]`).textContent();
  const permalink = await page.locator(`#${name} [data-permalink]`).getAttribute('href');
  assert.ok(sentence.endsWith(` Computed with dpcalc ${kVersion}: ${permalink}`), `${name} ${link}: ${sentence}`);
  await page.locator(`#${name} .cite-result summary`).click(); // closed again, for the next visit
  const exported = JSON.parse((await download(page, `#${name} [data-export-action="json"]`)).text);
  assert.equal(exported.cited.sentence, sentence, name);
  // The request the sentence states, among those the section's requests(inputs) sends for the
  // inputs on the page (web/app/<name>-requests.js, computed here in Node).
  const cited = exported.cited.request;
  assert.ok(cited, `${name}: the sentence states the answer to a request`);
  const inputs = await page.$eval(`#${name} form`, (form) =>
    Object.fromEntries(
      [...new Set([...form.elements].map((element) => element.name).filter(Boolean))].map((input) => [
        input,
        form.elements[input].value,
      ]),
    ),
  );
  const sent = sectionRequests[name].shared.requests(inputs, { catalog }).map((item) => item.request);
  const plain = Object.fromEntries(Object.entries(cited).filter(([field]) => field !== 'explain'));
  assert.ok(
    sent.some((request) => isPartOf(request, plain)),
    `${name}: ${JSON.stringify(plain)} is a request the section sends`,
  );
  for (const [path, value, key] of leaves(plain))
    assert.ok(sentence.includes(leafWords(value, key)), `${name}: ${path} = ${value} is not in "${sentence}"`);
  assert.deepEqual(problems, []);
}

test('LaTeX cites by the keys of the BibTeX export and leaves out the rows that are not proven', kTimeout, async () => {
  for (const name of kSections) {
    const { page, problems } = await openSection(name);
    const latex = (await download(page, `#${name} [data-export-action="latex"]`)).text;
    const bibtex = (await download(page, `#${name} [data-export-action="bibtex"]`)).text;
    const entries = new Set(bibtexEntries(bibtex).map((entry) => /^@\w+\{(\w+),/.exec(entry)[1]));
    const cited = [...latex.matchAll(/\\cite\{([^}]*)\}/g)].flatMap(([, keys]) => keys.split(','));
    assert.ok(cited.length > 0, `${name}: the export cites its works`);
    for (const key of cited) assert.ok(entries.has(key), `${name}: \\cite{${key}} has an entry in the BibTeX export`);
    // The sentence cites the works of the answer it states, as the page does.
    const sentence = latex.split('\n').find((line) => line.includes('Computed with dpcalc'));
    assert.match(sentence, /\\cite\{/, `${name}: ${sentence}`);
    // Every row with a citation cites its keys; the rows the page marks as not proven are left out.
    const rows = await page.$$eval(`#${name} table.methods tbody tr[data-ok="true"]`, (trs) =>
      trs.map((tr) => ({
        label: tr.querySelector('.row-label').textContent,
        proven: tr.dataset.proven !== 'false',
        keys: tr.querySelector('cite')?.dataset.keys ?? '',
      })),
    );
    const items = latex.split('\n').filter((line) => line.startsWith('  \\item '));
    assert.equal(items.length, rows.filter((row) => row.proven).length, `${name}: one item per proven row`);
    for (const row of rows.filter((each) => !each.proven)) {
      assert.ok(!items.some((item) => item.includes(row.label.split(' (')[0])), `${name}: ${row.label} left out`);
      assert.match(latex, /^% Left out, not proven: /m, name);
    }
    for (const [i, row] of rows.filter((each) => each.proven).entries()) {
      const keys = [...new Set(row.keys.split(' ').filter(Boolean))];
      if (keys.length) assert.ok(items[i].includes(`\\cite{${keys.join(',')}}`), `${name}: ${items[i]}`);
    }
    if (name === 'dpsgd')
      assert.ok(
        rows.some((row) => !row.proven && /RDP over-approximation/.test(row.label)),
        'the RDP row of a group is not proven (Sommer 2021)',
      );
    assert.deepEqual(problems, []);
  }
});

test(
  'the deployment record, as JSON and as a table, in the fields of the DP Deployments Registry',
  kTimeout,
  async () => {
    for (const name of [...kSections, 'audit']) {
      const { page, problems } = await openSection(name, { explains: name !== 'audit' });
      await page.click(`#${name} .deployment-record summary`);
      const exported = JSON.parse((await download(page, `#${name} [data-export-action="json"]`)).text);
      if (name === 'audit') {
        // A lower bound from an attack is no guarantee to file.
        await page.click(`#${name} [data-export-action="record-json"]`);
        await page.waitForSelector(`#${name} .deployment-record .export-status:text("not a privacy guarantee")`);
        continue;
      }
      const json = await download(page, `#${name} [data-export-action="record-json"]`);
      const markdown = await download(page, `#${name} [data-export-action="record-markdown"]`);
      const names = [json.name, markdown.name, `dpcalc-${name}.json`, `dpcalc-${name}.tex`, `dpcalc-${name}.bib`];
      assert.equal(new Set(names).size, names.length, `${name}: every download has a name of its own: ${names}`);
      assert.equal(json.name, `dpcalc-${name}-deployment-record.json`);
      assert.equal(markdown.name, `dpcalc-${name}-deployment-record.md`);
      const record = JSON.parse(json.text);
      assert.match(record.schema, /DP Deployments Registry \(Nanayakkara, Ghazi, Vadhan 2025\)/);
      assert.ok(['pure DP', 'approximate DP', 'zCDP'].includes(record.flavour), `${name}: ${record.flavour}`);
      assert.match(record.privacy_unit, /^(one|a group of \d+) (record|example)s?\b/, name);
      assert.match(record.deployment_model, /^central/);
      assert.deepEqual(record.implementation, {
        name: 'dpcalc',
        version: kVersion,
        section: await page.locator(`#${name} h2`).textContent(),
        permalink: await page.locator(`#${name} [data-permalink]`).getAttribute('href'),
      });
      // The same answer as the sentence and the JSON export: the request it states, its method.
      assert.deepEqual(record.request, exported.cited.request, name);
      const answer = exported.computations.find((entry) => isDeepStrictEqual(entry.request, record.request));
      assert.equal(record.accounting.method, answer.response.result.method, name);
      const loss = record.privacy_loss;
      assert.ok(
        (typeof loss.epsilon === 'number' && typeof loss.delta === 'number') || typeof loss.rho === 'number',
        `${name}: ${JSON.stringify(loss)}`,
      );
      const shown = await page.$$eval(`#${name} table.record tr`, (trs) =>
        trs.map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]),
      );
      for (const [field, value] of shown)
        assert.ok(markdown.text.includes(`| ${field} | ${value.replaceAll('|', '\\|')} |`), `${name}: ${field}`);
      assert.deepEqual(
        shown.map(([field]) => field),
        [
          'Flavour of DP',
          'Privacy unit',
          'Privacy-loss parameters',
          'Deployment model',
          'Privacy accounting',
          'Implementation',
          'Permalink',
        ],
      );
      assert.deepEqual(problems, []);
    }
  },
);

test(
  'the export boxes open, at 1280 and 390 px, light and dark: no axe-core violation, nothing sideways',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, {
      bypassCSP: true,
      hash: '#/dpsgd?v=0.3.0&duration=steps&steps=100&kmax=2',
    });
    try {
      await page.waitForSelector('#dpsgd [data-results][data-ready="true"]', { timeout: 200_000 });
      await page.click('#dpsgd .cite-result summary');
      await page.click('#dpsgd .deployment-record summary');
      await page.waitForSelector('#dpsgd table.record');
      for (const [width, colorScheme] of [
        [1280, 'light'],
        [390, 'dark'],
      ]) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        assert.deepEqual(await axeViolations(page, '#dpsgd .export-bar'), [], `${width} px, ${colorScheme}`);
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(pageWidth <= width, `${width} px: the page is ${pageWidth} px wide`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);
