// The Group privacy section's "largest group for a target" question in headless Chromium: the
// largest k for each description of one record, the bound at k + 1 over the target, and the answer
// holding when entered as the group size of the forward question.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };
// The section's defaults for one record ((0.5, 10⁻⁶)-DP; Laplace b = 2, Gaussian σ = 2, Δ = 1) and
// the target (10, 10⁻⁴).
const kLargest = '#/group?question=largest_k&target_epsilon=10&target_delta=1e-4';
const largestK = (page, row) =>
  page.locator(`[data-results="group"] tr[data-row="largest-${row}"] .largest-k`).getAttribute('data-k').then(Number);

test('the largest group within a target: each record description, one group more exceeds it', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: kLargest });
  try {
    // tests/reference/group_solve_reference.py (mpmath): the (0.5, 10⁻⁶) record's group δ
    // 10⁻⁶ (e^{kε} − 1)/(e^ε − 1) passes 10⁻⁴ at k = 9 (so k = 8, though kε allows 20); Laplace
    // kΔ/b ≤ 10 gives 20; the Gaussian of sensitivity kΔ (Balle, Wang 2018, Thm 8) gives 4.
    assert.equal(await largestK(page, 'guarantee'), 8);
    assert.equal(await largestK(page, 'laplace'), 20);
    assert.equal(await largestK(page, 'gaussian'), 4);
    const gaussianRow = await page.textContent('[data-results="group"] tr[data-row="largest-gaussian"]');
    assert.match(gaussianRow, /at that k: .*; at k \+ 1: /);
    const beyond = Number(
      await page
        .locator('[data-results="group"] tr[data-row="largest-gaussian"] .note .bound')
        .last()
        .getAttribute('data-epsilon'),
    );
    assert.ok(beyond > 10, `the Gaussian's ε at k = 5 at δ = 10⁻⁴: ${beyond}`);
    assert.equal(await page.locator('#group-k').isVisible(), false, 'the unknown has no input');
    assert.match(
      await page.textContent('[data-summary="group"]'),
      /The largest group within ε ≤ 10, δ ≤ 1 × 10⁻⁴: per-record guarantee: k ≤ 8/,
    );

    // Entered as the forward question's group size, k = 8 stays within the target.
    await page.selectOption('#group-question', 'guarantee');
    await page.fill('#group-k', '8');
    await page.waitForFunction(
      () => document.querySelector('[data-results="group"] tr[data-row="approx"] .bound')?.dataset.delta,
    );
    await waitForAllSections(page);
    const bound = page.locator('[data-results="group"] tr[data-row="approx"] .bound').first();
    assert.ok(Number(await bound.getAttribute('data-epsilon')) <= 10);
    assert.ok(Number(await bound.getAttribute('data-delta')) <= 1e-4);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
