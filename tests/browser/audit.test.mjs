// The Audit section in headless Chromium: the worked example of op 'audit' (docs/API.md): 900 of
// 1,000 members and 10 of 1,000 non-members flagged at 95%. Clopper–Pearson with 2.5% on each side,
// by mpmath (betainc, regularized, bisected to 30 digits): TPR ≥ 0.87971206, FPR ≤ 0.01831324;
// then ε ≥ ln(TPR_lo/FPR_hi) = 3.8719702 at δ = 0, μ ≥ Φ⁻¹(TPR_lo) − Φ⁻¹(FPR_hi) = 3.2634519; the
// claim (3, 10⁻⁵)-DP allows TPR ≤ e³·FPR_hi + 10⁻⁵ = 0.36784132 there and is refuted, (4, 10⁻⁵)-DP
// allows 1 − e⁻⁴(1 − 10⁻⁵ − FPR_hi) = 0.98201996 (Kairouz, Oh, Viswanath 2015, Thm 2.1);
// one run with canaries (JAX Privacy's auditing.py run from source: m = 1000, r = v = 100 at
// significance 0.05 gives ε ≥ 3.4930), scores pasted as CSV, fields marked in the page's words, the
// link round trip, "Audit this claim" from another section's attacker panel, 390 px, dark mode,
// axe, the exports, offline (service worker) and <dp-calculator section="audit">; screenshots at
// 1280 and 390 px, light and dark, in test-results/. The numbers themselves are tested natively
// and in Node (tests/core/audit/, tests/node/).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  axeViolations,
  collectProblems,
  openPage,
  reportCspViolations,
  resultsDir,
  sessionForFile,
  waitForAllSections,
} from './helpers.mjs';

const session = sessionForFile();
// One page for the tests that only look at the section (a load costs seconds); closed before the browser.
let shared;
after(() => shared?.context.close());
const kTimeout = { timeout: 240_000 };

const summary = '[data-summary="audit"]';
// A link with no inputs: every input at its default (the plain route #/audit would keep the inputs).
const kDefaults = '#/audit?v=0.3.0';
const results = '[data-results="audit"]';

async function sharedPage() {
  shared ??= await openPage(session, { hash: '#/audit', bypassCSP: true });
  return shared;
}

/** Follows `hash` on the shared page and waits for the section's answer. */
async function show(page, hash) {
  await page.goto(`${session.url}${hash}`);
  await page.waitForSelector(`section#${/^#\/(\w+)/.exec(hash)[1]}:not([hidden])`);
  await waitForAllSections(page);
}

/** Waits until the headline matches `pattern`; returns its text. */
async function headline(page, pattern) {
  await page.waitForFunction(
    ({ selector, source }) => new RegExp(source).test(document.querySelector(selector)?.textContent ?? ''),
    { selector: summary, source: pattern.source },
  );
  await waitForAllSections(page);
  return page.locator(summary).textContent();
}

const dataOf = (page, row, key) =>
  page.locator(`${results} tr[data-row="${row}"] .bound`).first().getAttribute(`data-${key}`);

test('the worked example: ε ≥ 3.872, μ ≥ 3.263, the intervals, and the claim refuted or not', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  await show(page, kDefaults);
  // The defaults are the worked example.
  const text = await headline(page, /refutes/);
  assert.equal(text, 'At 95% confidence the attack proves ε ≥ 3.87; it refutes (3, 10⁻⁵)-DP.');
  assert.ok(Math.abs(Number(await dataOf(page, 'epsilon', 'epsilon')) - 3.872) < 1e-3);
  assert.ok(Math.abs(Number(await dataOf(page, 'mu', 'mu')) - 3.263) < 1e-3);
  const tpr = await page.locator(`${results} tr[data-row="tpr"] .bound`).textContent();
  const fpr = await page.locator(`${results} tr[data-row="fpr"] .bound`).textContent();
  assert.equal(tpr, 'TPR ≥ 0.87971', 'rounded down');
  assert.equal(fpr, 'FPR ≤ 0.018314', 'rounded up');
  const claim = page.locator(`${results} tr[data-row="claim"]`);
  assert.equal(await claim.locator('[data-refutes]').getAttribute('data-refutes'), 'true');
  assert.match(await claim.textContent(), /allows TPR ≤ 0\.368 at FPR 0\.0183; the attack reached at least 0\.879/);
  // Never called a guarantee: a statistical lower bound.
  assert.match(await page.locator(`${results} tr[data-row="epsilon"]`).textContent(), /statistical lower bound/);
  // The claim's curve, the observed rates and their box.
  const legend = await page.locator('[data-plots="audit"] .legend').first().textContent();
  assert.match(legend, /what the claim allows/);
  assert.match(legend, /95% Clopper–Pearson box/);
  assert.match(legend, /observed rates/);
  assert.equal(
    await page.locator('[data-plots="audit"] svg.dp-plot').count(),
    2,
    'log axes shown, linear kept for its CSV',
  );
  // (4, 10⁻⁵)-DP allows 0.98202 there (the core's sentence rounds it up to 0.983): consistent.
  await page.fill('#audit-claim-epsilon', '4');
  assert.equal(
    await headline(page, /does not refute/),
    'At 95% confidence the attack proves ε ≥ 3.87; it does not refute (4, 10⁻⁵)-DP.',
  );
  assert.equal(await claim.locator('[data-refutes]').getAttribute('data-refutes'), 'false');
  assert.match(await claim.textContent(), /allows TPR ≤ 0\.983 at FPR 0\.0183/);
  assert.deepEqual(problems, []);
});

test('one run with canaries, rates with totals, and scores pasted as CSV', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  // JAX Privacy auditing.py (from source), m = 1000, r = v = 100, significance 0.05: 3.4930.
  await show(page, '#/audit?v=0.3.0&evidence=one_run&canaries=1000&guesses=100&correct=100&claim=none');
  assert.equal(await headline(page, /proves/), 'At 95% confidence the attack proves ε ≥ 3.49.');
  assert.ok(Math.abs(Number(await dataOf(page, 'epsilon', 'epsilon')) - 3.493) < 1e-3);
  // TPR 0.9 of 1000 and FPR 0.01 of 1000 are the worked example's counts.
  await show(page, '#/audit?v=0.3.0&evidence=rates&tpr=0.9&fpr=0.01');
  assert.match(await headline(page, /refutes/), /ε ≥ 3\.87; it refutes/);
  // Scores: the members all above the non-members; a test at the best threshold, corrected for the choice.
  await show(page, '#/audit?v=0.3.0&evidence=scores&claim=none');
  const members = Array.from({ length: 200 }, (_, i) => `${(1 + i / 100).toFixed(2)},1`);
  const nonmembers = Array.from({ length: 200 }, (_, i) => `${(-i / 100).toFixed(2)},0`);
  await page.fill('#audit-scores-text', ['score,label', ...members, ...nonmembers].join('\n'));
  await headline(page, /proves ε ≥/);
  assert.match(await page.locator(`${results} tr[data-row="threshold"]`).textContent(), /thresholds tried/);
  assert.match(page.url(), /scores=score%2Clabel/, 'the scores are in the link');
  // A line that is not a score is marked on the box, in words.
  await page.fill('#audit-scores-text', 'score,label\n0.5,1\nhigh,0');
  await page.waitForSelector('#audit-scores-text[aria-invalid="true"]');
  assert.equal(await page.locator('#audit-scores-text-error').textContent(), 'Line 3: “high” is not a score.');
  assert.deepEqual(problems, []);
});

test('bad input is marked on its field, in the words of its label', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  await show(page, '#/audit?v=0.3.0&true_positives=1200');
  await page.waitForSelector('#audit-true-positives[aria-invalid="true"]');
  assert.equal(
    await page.locator('#audit-true-positives-error').textContent(),
    'The members flagged (1200) cannot outnumber the members tried (1000).',
  );
  assert.equal(await page.locator(summary).textContent(), 'No answer: check the marked fields.');
  await show(page, '#/audit?v=0.3.0&confidence=1.5');
  await page.waitForSelector('#audit-confidence[aria-invalid="true"]');
  assert.match(await page.locator('#audit-confidence-error').textContent(), /confidence/i);
  assert.deepEqual(problems, []);
});

test('the link holds the state: a new page opened on it shows the same audit', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  await show(page, kDefaults);
  await page.selectOption('#audit-claim', 'gdp');
  await page.fill('#audit-claim-mu', '3');
  await page.fill('#audit-negatives', '2000');
  await page.fill('#audit-false-positives', '20');
  const text = await headline(page, /3-GDP/);
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, '#/audit?v=0.3.0&false_positives=20&negatives=2000&claim=gdp&claim_mu=3');
  const other = await openPage(session, { hash });
  try {
    assert.equal(await headline(other.page, /3-GDP/), text);
    assert.equal(await other.page.inputValue('#audit-claim-mu'), '3');
    assert.deepEqual(other.problems, []);
  } finally {
    await other.context.close();
  }
  assert.deepEqual(problems, []);
});

test(
  "“Audit this claim” under another section's attacker panel opens the audit with that result",
  kTimeout,
  async () => {
    const { page, problems } = await sharedPage();
    await show(page, '#/group?v=0.3.0&k=2');
    await page.waitForSelector('[data-attacker="group"][data-ready="true"] a[data-audit-claim]');
    await page.click('[data-attacker="group"] a[data-audit-claim]');
    await page.waitForSelector('section#audit:not([hidden])');
    assert.equal(await page.inputValue('#audit-claim'), 'request');
    const text = await headline(page, /the result of Group privacy/);
    assert.match(
      text,
      /^At 95% confidence the attack proves ε ≥ 3\.87; it (refutes|does not refute) the result of Group privacy\.$/,
    );
    const claimed = JSON.parse(await page.inputValue('#audit-claim-request'));
    assert.equal(claimed.op, 'group');
    assert.equal(claimed.k, 2);
    assert.equal(claimed.explain, undefined, 'the claim is the request, not its explanation');
    assert.deepEqual(problems, []);
  },
);

test('exports: JSON of the audit, the LaTeX lines, BibTeX of every work cited, the sentence', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  await show(page, kDefaults);
  await headline(page, /refutes/);
  const download = async (action) => {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`#audit [data-export-action="${action}"]`),
    ]);
    return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
  };
  const json = JSON.parse((await download('json')).text);
  const audit = json.computations.find((entry) => entry.request.op === 'audit');
  assert.deepEqual(audit.request.evidence, {
    kind: 'counts',
    true_positives: 900,
    positives: 1000,
    false_positives: 10,
    negatives: 1000,
  });
  assert.ok(audit.response.ok);
  assert.ok(json.computations.some((entry) => entry.request.op === 'tradeoff'));
  const latex = (await download('latex')).text;
  assert.match(latex, /\$\\varepsilon \\ge 3\.8719\$/);
  const bibtex = (await download('bibtex')).text;
  for (const key of ['clopper1934use', 'jagielski2020auditing', 'nasr2021adversary'])
    assert.match(bibtex, new RegExp(`@\\w+\\{${key},`), key);
  await page.click('#audit .cite-result summary');
  const sentence = await page.locator('#audit [data-cite-sentence]').textContent();
  assert.match(
    sentence,
    /^With probability at least 95% over the experiment, the audited mechanism is not \(ε, 0\)-DP for any ε < 3\.87 \(a statistical lower bound, not a guarantee\)/,
  );
  assert.match(sentence, /the claimed \(3, 10⁻⁵\)-DP is refuted/);
  // The export bar's curve is the section's plot: the claim's curve, the box and the observed rates.
  const csv = await download('curve');
  assert.equal(csv.name, 'dpcalc-audit-tradeoff.csv');
  assert.match(csv.text.split('\n')[0], /^series,false-positive rate \(non-members flagged\),/);
  assert.match(csv.text, /^95% Clopper–Pearson box,0\.0183132\d*,upper bound,0\.879712\d*,lower bound$/m);
  assert.deepEqual(problems, []);
});

test('390 px and dark: the answer first, nothing sideways; axe finds nothing; screenshots', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  mkdirSync(resultsDir, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 800 });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await show(page, kDefaults);
      await headline(page, /refutes/);
      assert.ok(
        (await page.evaluate(() => document.documentElement.scrollWidth)) <= width,
        `${width} px: no sideways scroll`,
      );
      // The headline first, before the table and the plot (below the form, as in every section).
      const tops = await page.$$eval(`${summary}, ${results}, [data-plots="audit"]`, (elements) =>
        elements.map((element) => element.getBoundingClientRect().top),
      );
      assert.ok(tops[0] < tops[1] && tops[1] < tops[2], `${width} px: ${tops}`);
      await page
        .locator('section#audit')
        .screenshot({ path: path.join(resultsDir, `audit-${width}-${colorScheme}.png`) });
      await page.$$eval('#audit details', (details) => details.forEach((element) => (element.open = true)));
      assert.deepEqual(await axeViolations(page), [], `${width} px, ${colorScheme}`);
      // Closed again for the next screenshot (the same answer stays on the page).
      await page.$$eval('#audit details', (details) => details.forEach((element) => (element.open = false)));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(problems, []);
});

test('offline: a visited page answers the audit again after a reload with the network cut', kTimeout, async () => {
  const context = await session.browser.newContext({ serviceWorkers: 'allow' });
  try {
    const page = await context.newPage();
    const problems = collectProblems(page);
    await page.addInitScript(reportCspViolations);
    await page.goto(`${session.url}#/audit`);
    await waitForAllSections(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
        );
    });
    await context.setOffline(true);
    await page.fill('#audit-claim-epsilon', '4');
    await headline(page, /does not refute \(4/);
    await page.reload();
    await waitForAllSections(page);
    assert.equal(
      await headline(page, /does not refute \(4/),
      'At 95% confidence the attack proves ε ≥ 3.87; it does not refute (4, 10⁻⁵)-DP.',
    );
    assert.deepEqual(
      problems.filter((text) => !/ERR_INTERNET_DISCONNECTED/.test(text)),
      [],
    );
  } finally {
    await context.close();
  }
});

test('<dp-calculator section="audit"> answers the worked example and checks its claim', kTimeout, async () => {
  const { page, problems } = await sharedPage();
  await show(page, kDefaults);
  await page.addScriptTag({ url: `${session.url}dp-calculator.js`, type: 'module' });
  await page.evaluate(() => {
    const host = document.createElement('div');
    host.innerHTML = `<dp-calculator id="audit-element" section="audit"></dp-calculator>
      <dp-calculator id="audit-element-4" section="audit" claim-epsilon="4"></dp-calculator>`;
    document.body.append(host);
  });
  const answer = async (id) => {
    await page.waitForFunction((name) => document.getElementById(name)?.dataset.ready === 'true', id, {
      timeout: 100_000,
    });
    return page.locator(`#${id} .answer`).first().textContent();
  };
  assert.equal(
    await answer('audit-element'),
    'ε ≥ 3.8719 (a statistical lower bound at 95% confidence, not a guarantee); refutes (3, 10⁻⁵)-DP',
  );
  assert.match(await answer('audit-element-4'), /; does not refute \(4, 10⁻⁵\)-DP$/);
  assert.deepEqual(problems, []);
});
