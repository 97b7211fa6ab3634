// "What an attacker can do" at any false-positive rate: the panel's FPR input (1% until set) and its
// sentence, in every section with the panel; a rate the answer has no point for is asked of the
// core (op 'tradeoff'); a text that is no rate is marked; the panel's table shows its rates as every
// other number on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goToSection, openPage, sessionForFile } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 200_000 };

/** The panel of `section`, answered. */
async function panel(page, section) {
  const holder = page.locator(`[data-attacker="${section}"][data-ready="true"]`);
  await holder.locator('[data-attacker-sentences]').waitFor({ timeout: 150_000 });
  return holder;
}

const fprSentence = (page, section) => page.locator(`[data-attacker-fpr="${section}"]`).textContent();

/** Waits until the FPR sentence of `section` reads `text`. */
const sentenceReads = (page, section, text) =>
  page.waitForFunction(
    ({ section, text }) => document.querySelector(`[data-attacker-fpr="${section}"]`)?.textContent === text,
    { section, text },
  );

test('the FPR input: 1% by default, any rate typed, a wrong text marked', kTimeout, async () => {
  // The form's example: (ε, δ) = (0.5, 10⁻⁶) per record, k = 4: (2, 9.8487 × 10⁻⁶) by group privacy.
  // The curve of (ε, δ) bounds the TPR at FPR α by min(e^ε α + δ, 1 − e^{−ε}(1 − δ − α)) (Kairouz,
  // Oh, Viswanath 2015, Thm 2.1): at α = 0.01, e²·0.01 + 9.8487 × 10⁻⁶ = 0.073900 for the group (7.4%,
  // rounded up) and e^0.5·0.01 + 10⁻⁶ = 0.016488 for one record (1.7%); at α = 0.05, 0.36946 (37%)
  // and 0.082437 (8.3%); at α = 0.001, 0.0073989 (0.74%) and 0.0016497 (0.17%). mpmath, 30 digits.
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    const holder = await panel(page, 'group');
    assert.equal(await holder.locator('#group-attacker-fpr').inputValue(), '1%');
    assert.equal(
      await fprSentence(page, 'group'),
      "At FPR 1%, an attacker's TPR against a group of 4 records is at most 7.4% (for one record alone: at most 1.7%).",
    );
    // A rate the answer has: at once.
    await page.fill('#group-attacker-fpr', '0.001');
    await sentenceReads(
      page,
      'group',
      "At FPR 0.1%, an attacker's TPR against a group of 4 records is at most 0.74% (for one record alone: at most 0.17%).",
    );
    // Another rate: asked of the core.
    await page.fill('#group-attacker-fpr', '1/20');
    await sentenceReads(
      page,
      'group',
      "At FPR 5%, an attacker's TPR against a group of 4 records is at most 37% (for one record alone: at most 8.3%).",
    );
    // A text that is no rate is marked, and the sentence keeps the last rate's.
    await page.fill('#group-attacker-fpr', '150%');
    assert.equal(await page.locator('#group-attacker-fpr').getAttribute('aria-invalid'), 'true');
    assert.match(
      await page.locator('#group-attacker-fpr-error').textContent(),
      /^FPR must be a rate above 0 and below 100%/,
    );
    assert.match(await fprSentence(page, 'group'), /^At FPR 5%/);
    // The rate stays when the section answers anew.
    await page.fill('#group-attacker-fpr', '5%');
    await page.fill('#group-k', '2');
    await page.waitForFunction(() =>
      document.querySelector('[data-attacker-fpr="group"]')?.textContent.includes('a group of 2 records'),
    );
    assert.equal(await page.locator('#group-attacker-fpr').inputValue(), '5%');
    assert.match(
      await fprSentence(page, 'group'),
      /^At FPR 5%, an attacker's TPR against a group of 2 records is at most /,
    );
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every section with the panel says the TPR at FPR 1%', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    const sections = await page.$$eval('section.calculator', (elements) => elements.map((element) => element.id));
    const withPanel = [];
    for (const name of sections) {
      await goToSection(page, name);
      if ((await page.locator(`[data-attacker="${name}"] [data-attacker-sentences]`).count()) === 0) continue;
      await panel(page, name);
      withPanel.push(name);
      const sentence = await fprSentence(page, name);
      assert.match(
        sentence,
        /^At FPR 1%, (an attacker's TPR( against a group of \d+ records)? is at most [\d.]+%|this guarantee does not limit)/,
        `${name}: ${sentence}`,
      );
    }
    for (const name of ['group', 'composition', 'dpsgd'])
      assert.ok(withPanel.includes(name), `${name} has the panel (${withPanel})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the panel's table shows its rates to the page's digits", kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    const holder = await panel(page, 'group');
    const cells = await holder
      .locator('details.data-table tbody')
      .first()
      .evaluate((body) => [...body.querySelectorAll('th, td')].map((cell) => cell.textContent));
    assert.ok(cells.length > 200, `${cells.length} cells`);
    // At most five significant digits, and powers of ten as the page writes them (not "e-9").
    const digits = (cell) => (cell.match(/^[\d.]+/)?.[0] ?? '').replace('.', '').replace(/^0+/, '').length;
    for (const cell of cells) {
      assert.doesNotMatch(cell, /e-\d/, cell);
      assert.ok(digits(cell) <= 5, cell);
    }
    assert.ok(cells.includes('1.1548 × 10⁻⁹'), 'the curve point 1.1547819846894583e-9, to five digits');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
