// The Several databases section in headless Chromium: its headline, the side-by-side table
// (classic, parallel, constrained unbounded and bounded, uninformative prior), the two plots with
// their data tables, and the three examples of Hartmann, Bindschaedler, West (2022) one click away. Expected numbers: Kairouz,
// Oh, Viswanath 2015, Thm 3.3 with mpmath (hospitals: 365 → 4.13846, 730 → 6.23198, 1000 → 7.53343,
// shown rounded up to 5 digits) and plain sums for basic composition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { goToSection, openPage, resultsDir, sessionForFile, waitForAllSections, waitForBound } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 90_000 };
const rowsOf = ['classic', 'parallel', 'unbounded', 'bounded', 'uninformative'];

/** Waits until row `row` shows a bound whose ε (its data-epsilon) is `epsilon` within 1e-9, relatively. */
async function waitForEpsilon(page, row, epsilon) {
  await page.waitForFunction(
    ({ row, epsilon }) => {
      const bound = document.querySelector(`[data-results="databases"] tr[data-row="${row}"] .bound`);
      return bound && Math.abs(Number(bound.dataset.epsilon) - epsilon) <= 1e-9 * epsilon;
    },
    { row, epsilon },
  );
}

test('several databases: the hospital example by default, every row, both plots', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await goToSection(page, 'databases');
    await waitForBound(page, 'databases', 'unbounded', 'ε ≤ 4.1385, δ ≤ 1 × 10⁻⁵');
    await waitForBound(page, 'databases', 'bounded', 'ε ≤ 6.232, δ ≤ 1 × 10⁻⁵');
    await waitForBound(page, 'databases', 'classic', 'ε ≤ 7.5335, δ ≤ 1 × 10⁻⁵');
    await waitForEpsilon(page, 'unbounded', 4.138458154753602);
    await waitForEpsilon(page, 'bounded', 6.2319778877081555);
    assert.equal(
      await page.locator('[data-summary="databases"]').textContent(),
      'A person in at most 365 of the 1,000 databases: at δ = 10⁻⁵: ε ≤ 4.1385 (unbounded), ε ≤ 6.232 (bounded), by optimal composition (exact).',
    );
    for (const row of rowsOf) {
      assert.equal(await page.locator(`[data-results="databases"] tr[data-row="${row}"]`).count(), 1, row);
    }
    // (0.05, 10⁻⁹) releases are not pure: parallel composition says why it does not apply.
    assert.equal(
      await page.locator('[data-results="databases"] tr[data-row="parallel"]').getAttribute('data-applies'),
      'false',
    );
    assert.equal(
      await page.locator('[data-results="databases"] tr[data-row="uninformative"]').getAttribute('data-ok'),
      'true',
    );
    // Formulas asked for before the first answer is drawn are typeset just after it (formula.js).
    await page.locator('[data-results="databases"] .katex').nth(3).waitFor();
    assert.equal(
      await page.locator('[data-results="databases"] .katex').count(),
      4,
      'a typeset formula in every row that applies',
    );
    assert.equal(await page.locator('[data-plots="databases"] svg.dp-plot').count(), 2, 'ε vs m and ε vs n');
    assert.equal(
      await page.locator('[data-plots="databases"] details.data-table table').count(),
      2,
      'each plot has its data table',
    );
    mkdirSync(resultsDir, { recursive: true });
    await page.locator('#databases').screenshot({ path: path.join(resultsDir, 'databases.png') });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("several databases: the paper's three examples are one click away", kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/databases' });
  try {
    const preset = (text) => page.locator('#databases button[data-preset]', { hasText: text });
    // Subsidiaries: 40, each 12 releases of pure ε = 0.1, exactly one: the worst single subsidiary is
    // 12 releases; bounded two subsidiaries, 24. Advanced (KOV) is never above basic: 1.2 and 2.4.
    await preset('Subsidiaries').click();
    await waitForAllSections(page);
    await waitForEpsilon(page, 'unbounded', 1.2);
    await waitForEpsilon(page, 'bounded', 2.4);
    await waitForBound(page, 'databases', 'parallel', 'ε ≤ 1.2');
    // Columns: common 30, ads 12, premium 20: free users 42 columns, bounded all 62.
    await preset('Software features').click();
    await waitForAllSections(page);
    const footprint = await page.locator('[data-results="databases"] tr[data-row="unbounded"] .note').textContent();
    assert.match(footprint, /50 databases/);
    assert.match(
      await page.locator('[data-results="databases"] tr[data-row="bounded"] .note').textContent(),
      /62 databases/,
    );
    await preset('Hospitals').click();
    await waitForAllSections(page);
    await waitForBound(page, 'databases', 'unbounded', 'ε ≤ 4.1385, δ ≤ 1 × 10⁻⁵');
    // The state is in the address: a reload keeps the inputs.
    assert.match(page.url(), /#\/databases/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('several databases: an impossible family is marked beside its field', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/databases' });
  try {
    await page.selectOption('#databases-constraint', 'families');
    await page.fill('#databases-families', '1+4');
    await page.waitForSelector('#databases-families[aria-invalid="true"]');
    assert.ok((await page.locator('#databases-families-error').textContent()).length > 10);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
