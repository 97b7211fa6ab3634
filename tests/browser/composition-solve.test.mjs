// The Composition section's "most releases for a target ε" question in headless Chromium: every
// method's answer, the largest in large type with the bound at it within the target and one more
// release beyond it, the count of the release repeated disabled (it is the unknown), and the answer
// composing back when entered as that count in the forward question.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 180_000 };
// One 0.125-DP release (ε₀ = 2⁻³: basic composition's sum is exact in binary), target (2, 10⁻⁵).
const kMostReleases =
  '#/composition?epsilon=0.125&item_delta=0&count=100&question=most_releases&target_epsilon=2&delta=1e-5';
const mostReleases = (page, row) =>
  page
    .locator(`[data-results="composition"] tr[data-row="${row}"] .most-releases`)
    .getAttribute('data-count')
    .then(Number);
const rowEpsilon = (page, row) =>
  page
    .locator(`[data-results="composition"] tr[data-row="${row}"] .bound`)
    .first()
    .getAttribute('data-epsilon')
    .then(Number);

test('the most releases within a target: every method, the largest meets it, one more does not', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: kMostReleases });
  try {
    // tests/reference/composition_solve_reference.py: basic composition allows ⌊2 / 0.125⌋ = 16;
    // optimal composition (Kairouz, Oh, Viswanath 2015, Thm 3.3, mpmath) 18 (δ(2) = 2.5 × 10⁻⁶ at
    // 18, 1.4 × 10⁻⁵ at 19); the tight PLD agrees.
    assert.equal(await mostReleases(page, 'basic'), 16);
    assert.equal(await mostReleases(page, 'optimal'), 18);
    assert.equal(await mostReleases(page, 'pld'), 18);
    const solved = page.locator('[data-answer="composition"] .answer-solved');
    assert.equal(await solved.getAttribute('data-unknown'), 'count');
    assert.equal(await solved.getAttribute('data-value'), '18');
    assert.ok((await rowEpsilon(page, 'solved')) <= 2);
    assert.ok((await rowEpsilon(page, 'beyond')) > 2);
    assert.match(await page.textContent('[data-results="composition"] tr[data-row="beyond"]'), /19 releases: exceeds/);
    assert.equal(await page.locator('#composition-release-1-count').isDisabled(), true, 'the unknown is no input');
    assert.match(
      await page.textContent('[data-summary="composition"]'),
      /^At most 18 releases of 0\.125-DP stay within ε ≤ 2 at δ = 10⁻⁵, by (optimal composition|PLD)/,
    );
    assert.equal(await page.locator('[data-numeric-status="composition-solve"]').getAttribute('data-state'), 'done');
    // The sentence for a paper states the bound at the answer: ε(18) = 1.95957 at δ = 10⁻⁵ (the
    // same script), 1.96 rounded up.
    await page.click('#composition .cite-result summary');
    assert.match(
      await page.textContent('#composition [data-cite-sentence]'),
      /^18 releases of 0\.125-DP together satisfy \(1\.96, 10⁻⁵\)-DP, by (optimal composition|privacy loss)/,
    );

    // Entered as the count of the forward question, 18 releases compose back within the target.
    await page.selectOption('#composition-question', 'total');
    await page.waitForFunction(() => !document.querySelector('#composition-release-1-count').disabled);
    await page.fill('#composition-release-1-count', '18');
    await page.waitForFunction(() =>
      document.querySelector('[data-summary="composition"]')?.textContent.startsWith('18 mechanisms'),
    );
    await waitForAllSections(page);
    assert.ok((await rowEpsilon(page, 'optimal')) <= 2);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const [width, colorScheme] of [
  [1280, 'light'],
  [390, 'dark'],
]) {
  test(`axe-core: no violation in the most-releases answer (${width} px, ${colorScheme})`, kTimeout, async () => {
    const { page, context, problems } = await openPage(session, {
      hash: kMostReleases,
      colorScheme,
      viewport: { width, height: 900 },
      bypassCSP: true,
    });
    try {
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
