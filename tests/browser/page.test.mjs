// The page in headless Chromium: loads cleanly under its CSP with no request to another origin,
// recomputes as you type (numbers checked against values computed here), explains invalid input
// beside the field, round-trips permalinks, survives malformed links, and writes screenshots.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { boundText, openPage, resultsDir, startSession, waitForAllSections, waitForBound } from './helpers.mjs';

let session;
before(async () => { session = await startSession(); });
after(async () => { await session?.close(); });

const kTimeout = { timeout: 60_000 };

test('the page loads with every section, formulas and plots, no console error and no foreign request', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    assert.equal(await page.title(), 'dpcalc: a differential-privacy calculator');
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'/);
    // Defaults: k = 4, ε = 0.5, so pure DP gives kε = 2; ρ = 0.125 gives k²ρ = 2.
    await waitForBound(page, 'group', 'pure', `ε ≤ ${4 * 0.5}`);
    await waitForBound(page, 'group', 'zcdp', `ρ ≤ ${4 * 4 * 0.125}`);
    assert.ok(await page.locator('[data-results="group"] .katex').count() >= 8, 'formulas typeset by KaTeX');
    assert.ok(await page.locator('[data-plots="group"] svg.dp-plot').count() === 2, 'two group plots');
    assert.ok(await page.locator('[data-plots="composition"] svg.dp-plot').count() === 2, 'composition plots: ε against k, and the privacy profile');
    assert.ok(await page.locator('details.data-table table').count() === 4, 'every plot has a table view');
    for (const row of ['basic', 'parallel', 'advanced-drv', 'advanced-kov', 'optimal', 'zcdp', 'pld']) {
      assert.equal(await page.locator(`[data-results="composition"] tr[data-row="${row}"]`).getAttribute('data-ok'), 'true', row);
    }
    for (const placeholder of ['Several databases', 'DP-SGD with groups', 'Group-wise relative error']) {
      assert.match(await page.locator('#coming').textContent(), new RegExp(`${placeholder}\\s*coming`));
    }
    assert.equal(await page.locator('#notice').isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('typing a value updates the result', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    const k = 7;
    const epsilon = 0.3;
    await page.fill('#group-k', String(k));
    await page.fill('#group-epsilon', String(epsilon));
    await waitForBound(page, 'group', 'pure', `ε ≤ ${Number((k * epsilon).toPrecision(5))}`);
    // Basic composition of 20 mechanisms at ε₀ = 0.25: 5.
    await page.fill('#composition-count', '20');
    await page.fill('#composition-epsilon', '0.25');
    await waitForBound(page, 'composition', 'basic', `ε ≤ ${20 * 0.25}`);
    // Laplace b = 4, Δ = 1, group of 7: kΔ/b = 1.75.
    await page.fill('#group-scale', '4');
    await waitForBound(page, 'group', 'laplace', `ε ≤ ${k / 4}`);
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

    await page.fill('#split-count', 'many');
    await page.waitForSelector('#split-count[aria-invalid="true"]');
    assert.match(await page.locator('#split-count-error').textContent(), /“many” is not a number/);
    await page.fill('#split-count', '2.5');
    await page.waitForFunction(() => !/not a number/.test(document.querySelector('#split-count-error').textContent)
      && document.querySelector('#split-count').getAttribute('aria-invalid') === 'true');

    // Fixing the value clears the mark.
    await page.fill('#group-delta', '1e-6');
    await page.waitForSelector('#group-delta:not([aria-invalid])');
    assert.equal(await message.isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a permalink reproduces the inputs and the results exactly', kTimeout, async () => {
  const first = await openPage(session);
  let hash;
  let inputs;
  let results;
  const readInputs = (page) => page.$$eval('form[data-section] [name]', (controls) => controls.map((control) => [control.name, control.value]));
  const readResults = (page) => page.$$eval('[data-results]', (regions) => regions.map((region) => region.textContent));
  try {
    await first.page.fill('#group-k', '12');
    await first.page.fill('#group-sigma', '3.5');
    await first.page.fill('#composition-count', '250');
    await first.page.fill('#composition-delta0', '1e-9');
    await first.page.fill('#kmeans-iterations', '20');
    await waitForBound(first.page, 'group', 'pure', `ε ≤ ${12 * 0.5}`);
    await waitForBound(first.page, 'composition', 'basic', `ε ≤ ${250 * 0.1}, δ ≤ 2.5 × 10⁻⁷`);
    await first.page.waitForSelector('[data-results="kmeans"] tr[data-iteration="20"]');
    await waitForAllSections(first.page);
    hash = await first.page.evaluate(() => location.hash);
    assert.equal(await first.page.locator('#permalink').getAttribute('href'), hash);
    inputs = await readInputs(first.page);
    results = await readResults(first.page);
    assert.deepEqual(first.problems, []);
  } finally {
    await first.context.close();
  }
  assert.match(hash, /group\.k=12/);
  const second = await openPage(session, { hash });
  try {
    assert.deepEqual(await readInputs(second.page), inputs);
    assert.deepEqual(await readResults(second.page), results);
    assert.equal(await second.page.locator('#notice').isHidden(), true);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.context.close();
  }
});

test('a malformed link falls back to the defaults with a notice', kTimeout, async () => {
  for (const hash of ['#garbage', '#v=1&group.nonsense=3', '#v=1&group.k=%E0%A4%A', '#v=99&group.k=3', '#group.k=3&group.k=4']) {
    const { page, context, problems } = await openPage(session, { hash });
    try {
      await page.waitForSelector('#notice:not([hidden])');
      assert.match(await page.locator('#notice').textContent(), /default values/);
      assert.equal(await page.inputValue('#group-k'), '4', hash);
      await waitForBound(page, 'group', 'pure', `ε ≤ ${4 * 0.5}`);
      assert.doesNotMatch(await page.evaluate(() => location.hash), /nonsense|v=99/);
      assert.deepEqual(problems, [], hash);
    } finally {
      await context.close();
    }
  }
});

test('screenshots in light and dark mode', kTimeout, async () => {
  mkdirSync(resultsDir, { recursive: true });
  for (const [colorScheme, file] of [['light', 'page.png'], ['dark', 'page-dark.png']]) {
    const { page, context, problems } = await openPage(session, { colorScheme });
    try {
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background === 'rgb(18, 20, 23)', colorScheme === 'dark', `${colorScheme}: ${background}`);
      await page.screenshot({ path: path.join(resultsDir, file), fullPage: true });
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
    assert.equal(await page.evaluate(() => document.activeElement.id), 'group-kmax');
    const labelled = await page.$$eval('form input', (inputs) => inputs.every((input) => input.labels.length === 1));
    assert.equal(labelled, true, 'every input has its label');
    assert.ok((await boundText(page, 'group', 'pure')).includes('ε ≤ 2.5'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
