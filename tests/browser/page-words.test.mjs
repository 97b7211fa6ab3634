// Numbers and words on the page as people write and read them: every numeric input takes a fraction
// and e-notation (256/50000, 1e-5) as the number it means; values the core derives are shown without
// floating-point noise (195.3125 steps per epoch, not 195.31249999999997); the mechanism picker keeps
// a symbol's case (ε, p) and says a yes/no parameter as yes or no; errors and notes name methods,
// relations and fields as the page does, not as the API does; Calibrate states the σ it found
// without the search's bracket; the attacker plot's two axes download under two names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 150_000 };
const ledgerHash = (rows) => `#/composition?ledger=${encodeURIComponent(JSON.stringify(rows))}`;

/** Types `text` into `selector` and waits for the section shown to answer again. */
async function typeInto(page, selector, text) {
  await page.fill(selector, text);
  await page
    .waitForFunction(() => document.querySelector('section.calculator:not([hidden]) [aria-busy]'), null, {
      timeout: 2000,
    })
    .catch(() => {});
  await waitForAllSections(page);
}

test(
  'a fraction and e-notation in numeric inputs; a derived value without floating-point noise',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, { hash: '#/dpsgd' });
    try {
      // N = 5e4 and B = 256: an epoch is N/B = 195.3125 steps and 30 epochs ⌈5859.375⌉ = 5860 steps.
      await typeInto(page, '#dpsgd-dataset-size', '5e4');
      await typeInto(page, '#dpsgd-batch-size', '256');
      await typeInto(page, '#dpsgd-epochs', '30');
      await typeInto(page, '#dpsgd-delta', '1e-5');
      await typeInto(page, '#dpsgd-noise-multiplier', '11/10');
      const answer = page.locator('[data-answer="dpsgd"]');
      await answer.locator('.note', { hasText: 'steps per epoch' }).waitFor();
      for (const field of ['dataset-size', 'noise-multiplier']) {
        assert.equal(await page.locator(`#dpsgd-${field}`).getAttribute('aria-invalid'), null);
      }
      const note = await answer.locator('.note', { hasText: 'steps per epoch' }).textContent();
      assert.equal(note, 'steps = ⌈epochs · steps per epoch⌉ = ⌈30 · 195.3125⌉ = 5860 (rounded up)');
      const withFraction = await page.locator('[data-summary="dpsgd"]').textContent();
      assert.doesNotMatch(await answer.textContent(), /\d\.\d{9,}/, 'no number shows its floating-point noise');
      // The same number typed as a decimal gives the same answer.
      await typeInto(page, '#dpsgd-noise-multiplier', '1.1');
      assert.equal(await page.locator('[data-summary="dpsgd"]').textContent(), withFraction);
      // A text that is no number says what the page takes.
      await typeInto(page, '#dpsgd-delta', 'one in a million');
      const error = await page.locator('#dpsgd-delta-error').textContent();
      assert.equal(error, '“one in a million” is not a number (write e.g. 0.5, 1e-6, 1 × 10⁻⁶ or 256/50000).');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test('the mechanism picker keeps the case of symbols and says yes/no parameters in words', kTimeout, async () => {
  // A link's exponential release that leaves `adaptive` out: its default, yes (the catalog's).
  const { page, context, problems } = await openPage(session, {
    hash: ledgerHash([{ count: '10', mechanism: { type: 'exponential', epsilon: '0.5' } }]),
  });
  try {
    const caption = await page.locator('[data-results="composition"] caption').first().textContent();
    assert.match(caption, /^10 × exponential mechanism \(ε = 0\.5, adaptive = yes\)/);
    const label = (id) => page.locator(`label[for="${id}"]`).textContent();
    assert.match(await label('composition-release-1-epsilon'), /^ε > 0 of one selection/);
    await page.selectOption('#composition-release-1-type', 'randomized_response');
    assert.match(await label('composition-release-1-noise-parameter'), /^p in \(0, 1\], the probability/);
    await page.selectOption('#composition-release-1-type', 'laplace');
    assert.match(await label('composition-release-1-scale'), /^Noise scale b > 0/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test(
  "errors and notes in the page's words: methods, relations and fields as the page names them",
  kTimeout,
  async () => {
    // Randomized response has no add/remove pair (Warner 1965: a respondent's answer changes), so
    // under the default relation the headline and the relation input say which relation to choose.
    const { page, context, problems } = await openPage(session, {
      hash: ledgerHash([
        { count: '12', mechanism: { type: 'discrete_gaussian', sigma: '5', sensitivity: '1' } },
        { count: '4', mechanism: { type: 'randomized_response', noise_parameter: '0.5', num_buckets: '2' } },
      ]),
    });
    try {
      await page.waitForSelector('#composition-relation[aria-invalid="true"]');
      assert.match(
        await page.locator('[data-summary="composition"]').textContent(),
        /release 2 \(randomized response\) has no bound under “one record added or removed”/,
      );
      assert.match(
        await page.locator('#composition .field[data-field="relation"]').textContent(),
        /choose “one record replaced”/,
      );
      const section = await page.locator('#composition').textContent();
      assert.doesNotMatch(section, /add_remove|zero_out|items\.\d|method '/);
      // DP-SGD: truncated Poisson sampling has no analysis of groups; the group size is marked and
      // the message names the loops by the page's words and the field by its symbol.
      await page.goto(`${session.url}#/dpsgd?v=0.3.0&sampling=truncated_poisson&group_size=4&duration=steps&steps=100`);
      await page.waitForSelector('#dpsgd-group-size[aria-invalid="true"]', { timeout: 60_000 });
      const groupError = await page.locator('#dpsgd-group-size-error').textContent();
      assert.match(groupError, /“truncated Poisson sampling”; “Poisson sampling”, .* have one \(or use k = 1\)/);
      assert.doesNotMatch(await page.locator('#dpsgd').textContent(), /group_size|'poisson'|'fixed batch'|sampling '/);
      await page.goto(`${session.url}#/composition`);
      // The exponential mechanism's note suggests another method, by the name its row has.
      await page.goto(
        `${session.url}${ledgerHash([{ count: '10', mechanism: { type: 'exponential', epsilon: '0.5' } }])}`,
      );
      await waitForAllSections(page);
      await page
        .locator('[data-results="composition"] tr[data-row="pld"][data-ok="true"]')
        .waitFor({ timeout: 120_000 });
      const pld = await page.locator('[data-results="composition"] tr[data-row="pld"]').textContent();
      assert.match(pld, /for many selections the zCDP method \(ε²\/8-zCDP each/);
      assert.doesNotMatch(await page.locator('#composition').textContent(), /method '/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'Calibrate states the noise it found and what it composes back to, without the search bracket',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, { hash: '#/calibrate' });
    try {
      const text = await page.locator('[data-results="calibrate"]').textContent();
      assert.match(text, /composes back to ε ≤ [\d.]+ at δ = 1 × 10⁻⁵, found in \d+ bound evaluations/);
      assert.doesNotMatch(text, /search bracket/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test("the attacker plot's linear and log-axes tables download under their own names", kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    const panel = page.locator('[data-attacker="group"][data-ready="true"]');
    await panel.locator('figure.chart').waitFor();
    const linear = await panel.locator('[data-csv]').getAttribute('data-csv');
    await panel.locator('button[data-axes="log"]').click();
    await panel.locator('figure.chart [data-csv]').waitFor();
    const log = await panel.locator('[data-csv]').getAttribute('data-csv');
    assert.equal(linear, 'dpcalc-group-attacker');
    assert.equal(log, 'dpcalc-group-attacker-log');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
