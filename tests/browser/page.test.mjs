// The page in headless Chromium: loads cleanly under its CSP with no request to another origin,
// recomputes as you type (numbers checked against values computed here), explains invalid input
// beside the field, round-trips permalinks, survives malformed links, and writes screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  boundText,
  goToSection,
  openMoreOptions,
  openPage,
  resultsDir,
  sessionForFile,
  waitForAllSections,
  waitForBound,
} from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 60_000 };

test(
  'the page loads with every section, formulas and plots, no console error and no foreign request',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session);
    try {
      assert.equal(await page.title(), 'Group privacy · dpcalc: a differential-privacy calculator');
      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.match(csp, /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'/);
      // Defaults: k = 4, ε = 0.5, so pure DP gives kε = 2; ρ = 0.125 gives k²ρ = 2.
      await waitForBound(page, 'group', 'pure', `ε ≤ ${4 * 0.5}`);
      await waitForBound(page, 'group', 'zcdp', `ρ ≤ ${4 * 4 * 0.125}`);
      // Formulas asked for before the first answer is drawn are typeset just after it (formula.js);
      // most rows are examples nobody set, under "Compare with".
      await page.click('[data-results="group"] details.compare-with > summary');
      await page.locator('[data-results="group"] .katex').nth(7).waitFor();
      assert.ok((await page.locator('[data-results="group"] .katex').count()) >= 8, 'formulas typeset by KaTeX');
      assert.ok((await page.locator('[data-plots="group"] svg.dp-plot').count()) === 2, 'two group plots');
      assert.equal(await page.locator('#group [data-notice]').isHidden(), true);
      await goToSection(page, 'composition');
      await page.waitForSelector('[data-results="composition"] tr[data-row="pld"][data-status="done"]');
      assert.ok(
        (await page.locator('[data-plots="composition"] svg.dp-plot').count()) === 2,
        'composition plots: ε against k, and the privacy profile',
      );
      assert.ok(
        (await page.locator('[data-plots] details.data-table table').count()) === 4,
        'every plot has a table view',
      );
      for (const row of ['basic', 'parallel', 'advanced-drv', 'advanced-kov', 'optimal', 'zcdp', 'pld']) {
        assert.equal(
          await page.locator(`[data-results="composition"] tr[data-row="${row}"]`).getAttribute('data-ok'),
          'true',
          row,
        );
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test('typing a value updates the result', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    const k = 7;
    const epsilon = 0.3;
    await page.fill('#group-k', String(k));
    await page.fill('#group-epsilon', String(epsilon));
    await waitForBound(page, 'group', 'pure', `ε ≤ ${Number((k * epsilon).toPrecision(5))}`);
    // Laplace b = 4, Δ = 1, group of 7: kΔ/b = 1.75.
    await openMoreOptions(page, 'group');
    await page.fill('#group-scale', '4');
    await waitForBound(page, 'group', 'laplace', `ε ≤ ${k / 4}`);
    // Basic composition of 20 mechanisms at ε₀ = 0.25: 5.
    await goToSection(page, 'composition');
    await page.fill('#composition-release-1-count', '20');
    await page.fill('#composition-release-1-epsilon', '0.25');
    await waitForBound(page, 'composition', 'basic', `ε ≤ ${20 * 0.25}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an invalid value is marked and explained beside its field; the rest keeps working', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await page.fill('#group-delta', '1.5');
    await page.waitForSelector('#group-delta[aria-invalid="true"]');
    const message = page.locator('#group-delta-error');
    assert.equal(await message.isVisible(), true);
    assert.ok((await message.textContent()).length > 10, 'the message explains the error');
    assert.equal(await page.locator('#group-delta').getAttribute('aria-describedby'), 'group-delta-error');
    assert.equal(await page.locator('[data-results="group"] tr[data-row="approx"]').getAttribute('data-ok'), 'false');
    // Other rows and sections still answer.
    await waitForBound(page, 'group', 'pure', `ε ≤ ${4 * 0.5}`);
    await page.fill('#group-k', '6');
    await waitForBound(page, 'group', 'pure', `ε ≤ ${6 * 0.5}`);
    assert.equal(await page.locator('#group-k').getAttribute('aria-invalid'), null);

    await goToSection(page, 'split');
    await page.fill('#split-count', 'many');
    await page.waitForSelector('#split-count[aria-invalid="true"]');
    assert.match(await page.locator('#split-count-error').textContent(), /“many” is not a number/);
    await page.fill('#split-count', '2.5');
    await page.waitForFunction(
      () =>
        !/not a number/.test(document.querySelector('#split-count-error').textContent) &&
        document.querySelector('#split-count').getAttribute('aria-invalid') === 'true',
    );

    // Back to the group section (by its link: the two edits above may be one step of the back
    // button or two, by how long apart they were): its invalid text is still there, marked; fixing
    // it clears the mark.
    await page.click('nav a[href="#/group"]');
    await page.waitForSelector('#group:not([hidden]) #group-delta[aria-invalid="true"]');
    assert.equal(await page.inputValue('#group-delta'), '1.5');
    await page.fill('#group-delta', '1e-6');
    await page.waitForSelector('#group-delta:not([aria-invalid])');
    assert.equal(await message.isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a permalink reproduces a section's inputs and results exactly", kTimeout, async () => {
  const first = await openPage(session);
  let hash;
  let inputs;
  let results;
  const readInputs = (page) =>
    page.$$eval('section:not([hidden]) form[data-section] [name]', (controls) =>
      controls.map((control) => [control.name, control.value]),
    );
  const readResults = (page) =>
    page.$$eval('section:not([hidden]) [data-results]', (regions) => regions.map((region) => region.textContent));
  try {
    await goToSection(first.page, 'composition');
    await first.page.fill('#composition-release-1-count', '250');
    await first.page.fill('#composition-release-1-delta', '1e-9');
    await waitForBound(first.page, 'composition', 'basic', `ε ≤ ${250 * 0.1}, δ ≤ 2.5 × 10⁻⁷`);
    await first.page.waitForSelector('[data-results="composition"] tr[data-row="pld"][data-status="done"]');
    await waitForAllSections(first.page);
    hash = await first.page.evaluate(() => location.hash);
    assert.equal(
      await first.page.locator('#composition [data-permalink]').getAttribute('href'),
      `${session.url}${hash}`,
    );
    inputs = await readInputs(first.page);
    results = await readResults(first.page);
    assert.deepEqual(first.problems, []);
  } finally {
    await first.context.close();
  }
  // The link carries the version and the inputs set, in the form's order (web/app/versions.js): here
  // the ledger, the request's items with the numbers as typed.
  const ledger = [{ count: '250', guarantee: { epsilon: '0.1', delta: '1e-9' } }];
  assert.equal(hash, `#/composition?v=0.3.0&ledger=${encodeURIComponent(JSON.stringify(ledger))}`);
  const second = await openPage(session, { hash });
  try {
    await second.page.waitForSelector('[data-results="composition"] tr[data-row="pld"][data-status="done"]');
    await waitForAllSections(second.page);
    assert.deepEqual(await readInputs(second.page), inputs);
    assert.deepEqual(await readResults(second.page), results);
    assert.equal(await second.page.locator('#composition [data-notice]').isHidden(), true);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.context.close();
  }
});

// In-page links used to wipe every input (the hash "#split" failed to decode and the page fell back
// to its defaults), and deep links did not scroll.
test('links between sections, plain anchors and the back button keep every input', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await page.fill('#group-k', '9');
    await waitForBound(page, 'group', 'pure', `ε ≤ ${9 * 0.5}`);
    await goToSection(page, 'split');
    assert.equal(await page.evaluate(() => location.hash), '#/split?v=0.3.0');
    await page.fill('#split-count', '40');
    // The skip link and the glossary link are plain anchors: they scroll, nothing else changes.
    await page.keyboard.press('Shift+Tab');
    await page.focus('.skip-link');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
    await page.click('a[href="#glossary"]');
    assert.equal(await page.inputValue('#split-count'), '40');
    assert.match(await page.evaluate(() => location.hash), /^#\/split\?.*count=40/);
    await goToSection(page, 'group');
    assert.equal(await page.inputValue('#group-k'), '9');
    await page.goBack();
    await page.waitForSelector('#split:not([hidden])');
    assert.equal(await page.inputValue('#split-count'), '40');
    // Old anchors (#kmeans) still lead to their section, scrolled into view, inputs untouched.
    await page.evaluate(() => {
      location.hash = '#kmeans';
    });
    await page.waitForSelector('#kmeans:not([hidden])');
    await page.waitForFunction(() => document.activeElement?.id === 'kmeans-title');
    const { top, scrolled } = await page.evaluate(() => ({
      top: document.getElementById('kmeans').getBoundingClientRect().top,
      scrolled: scrollY,
    }));
    assert.ok(scrolled > 0 && top >= -1 && top < 100, `section scrolled into view (top ${top}, scrollY ${scrolled})`);
    await goToSection(page, 'group');
    assert.equal(await page.inputValue('#group-k'), '9');
    await goToSection(page, 'split');
    assert.equal(await page.inputValue('#split-count'), '40');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a malformed link leaves a quoted, truncated notice next to its section', kTimeout, async () => {
  const long = 'x'.repeat(150);
  const cases = [
    ['#/group?nonsense=3', 'group', /“nonsense” is not an input of Group privacy/],
    ['#/split?count=%E0%A4%A', 'split', /is not valid URL encoding/],
    ['#/group?k=3&k=4', 'group', /“k” appears twice/],
    [`#/composition?kind=${long}`, 'composition', /“x{40}…” is not a choice of “Kind of mechanism”/],
    [`#/${'y'.repeat(5000)}`, 'group', /there is no section “y{40}…”/],
    ['#v=1&group.nonsense=3', 'group', /“nonsense” is not an input of Group privacy/],
    ['#v=99&group.k=3', 'group', /version “99”/],
  ];
  const { page, context, problems } = await openPage(session);
  try {
    for (const [hash, section, message] of cases) {
      await page.goto('about:blank');
      await page.goto(session.url + hash);
      const notice = page.locator(`#${section} [data-notice]`);
      await notice.waitFor();
      const text = await notice.textContent();
      assert.match(text, message, hash.slice(0, 60));
      assert.match(text, /default values/);
      assert.ok(text.length < 200, `the notice is short (${text.length})`);
      assert.equal(await page.locator('section.calculator:not([hidden])').getAttribute('id'), section);
      assert.equal(await page.inputValue('#group-k'), '4', hash.slice(0, 60));
    }
    // Leaving a page while its workers load aborts their requests: not a problem of the page.
    assert.deepEqual(
      problems.filter((problem) => !/^request failed: .* net::ERR_ABORTED$/.test(problem)),
      [],
    );
  } finally {
    await context.close();
  }
});

test('a version-1 permalink still opens its section with its inputs', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, {
    hash: '#v=1&group.k=12&split.count=40&composition.kind=guarantee',
  });
  try {
    assert.equal(await page.locator('section.calculator:not([hidden])').getAttribute('id'), 'group');
    await waitForBound(page, 'group', 'pure', `ε ≤ ${12 * 0.5}`);
    assert.equal(await page.evaluate(() => location.hash), '#/group?v=0.3.0&k=12');
    await goToSection(page, 'split');
    assert.equal(await page.inputValue('#split-count'), '40');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('screenshots at 1280 and 390 px, light and dark', kTimeout, async () => {
  mkdirSync(resultsDir, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    const { page, context, problems } = await openPage(session, { colorScheme, hash: '#/composition?kind=laplace' });
    try {
      await page.waitForSelector('[data-numeric-status="composition-pld"][data-state="done"]');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background === 'rgb(18, 20, 23)', colorScheme === 'dark', `${colorScheme}: ${background}`);
      const suffix = colorScheme === 'dark' ? '-dark' : '';
      await page.screenshot({ path: path.join(resultsDir, `page${suffix}.png`), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-plots="composition"] svg.dp-plot')].every(
          (svg) => Number(svg.getAttribute('width')) < 390,
        ),
      );
      await page.screenshot({ path: path.join(resultsDir, `page-390${suffix}.png`), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('keyboard: Tab reaches the first input, and Enter does not reload the page', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await page.focus('#group-k');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await waitForBound(page, 'group', 'pure', `ε ≤ ${5 * 0.5}`);
    await page.keyboard.press('Tab');
    // The plot's range waits under "More options": the next input is the guarantee per record.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'group-epsilon');
    const labelled = await page.$$eval('form input:not([type="hidden"])', (inputs) =>
      inputs.every((input) => input.labels.length === 1),
    );
    assert.equal(labelled, true, 'every input has its label');
    assert.ok((await boundText(page, 'group', 'pure')).includes('ε ≤ 2.5'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
