// The DP-SGD groups section's "most steps for a target ε" question in headless Chromium: the answer,
// the bound at the answer within the target and one step beyond it, the steps input hidden (it is
// the unknown), and the answer composing back when entered as the forward question's steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, sessionForFile } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 180_000 };
const kTarget = 1;
const kMostSteps =
  '#/dpsgd?sampling=poisson&sampling_rate=0.01&group_size=1&noise_multiplier=1&delta=1e-5' +
  `&duration=steps&steps=200&kmax=1&mode=most_steps&target_epsilon=${kTarget}`;
const waitDone = (page) =>
  page.waitForSelector('[data-numeric-status="dpsgd-numeric"][data-state="done"]', { timeout: 150_000 });
const rowEpsilon = (page, row) =>
  page.locator(`[data-results="dpsgd"] tr[data-row="${row}"] .bound`).first().getAttribute('data-epsilon').then(Number);

test('the most steps within a target ε: the answer meets it, one more step does not', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: kMostSteps });
  try {
    await waitDone(page);
    const solved = page.locator('[data-answer="dpsgd"] .answer-solved');
    assert.equal(await solved.getAttribute('data-unknown'), 'steps');
    const steps = Number(await solved.getAttribute('data-value'));
    assert.ok(Number.isInteger(steps) && steps > 1, `steps ${steps}`);
    assert.ok((await rowEpsilon(page, 'solved')) <= kTarget);
    assert.ok((await rowEpsilon(page, 'beyond')) > kTarget);
    assert.match(await page.textContent('[data-results="dpsgd"] tr[data-row="beyond"]'), /exceeds the target/);
    assert.equal(await page.locator('#dpsgd-steps').isVisible(), false, 'the unknown has no input');
    assert.match(await page.textContent('#dpsgd'), /At most [\d,]+ steps: a group of 1 example stays within ε ≤ 1/);

    // Entered as the forward question's steps, the answer composes back within the target.
    await page.selectOption('#dpsgd-mode', 'forward');
    await page.fill('#dpsgd-steps', String(steps));
    await page.waitForFunction(
      (expected) => document.querySelector('[data-answer="dpsgd"]')?.textContent.includes(expected),
      `after ${steps.toLocaleString('en-US')} steps`,
      { timeout: 150_000 },
    );
    const forward = Number(
      await page.locator('[data-answer="dpsgd"] .answer-bound .bound').getAttribute('data-epsilon'),
    );
    assert.ok(forward <= kTarget, `ε at ${steps} steps: ${forward}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
