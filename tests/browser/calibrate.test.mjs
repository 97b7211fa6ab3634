// The "Noise calibration" section in headless Chromium ("how much noise do I need?"):
// answers checked against mpmath and dp_accounting, the PLD row with progress, rows that do not
// apply saying why, field errors beside their field, and the permalink of its inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goToSection, openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 60_000 };

const noiseOf = async (page, row) =>
  Number(
    await page.locator(`[data-results="calibrate"] tr[data-row="${row}"] [data-noise]`).getAttribute('data-noise'),
  );

async function waitForPld(page) {
  await page.waitForSelector('[data-results="calibrate"] tr[data-row="pld"][data-status="done"]');
}

test('Gaussian σ by default: the analytic answer is the exact σ of Balle & Wang 2018', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await goToSection(page, 'calibrate');
    await waitForPld(page);
    // k = 10 uses compose to one Gaussian with σ/√10; σ* for one use at ε = 1, δ = 1e-5 is
    // 3.7306316348159418 (Balle & Wang 2018, Thm 8, solved in mpmath at 50 digits).
    const exact = Math.sqrt(10) * 3.7306316348159418;
    const analytic = await noiseOf(page, 'analytic');
    assert.ok(analytic >= exact * (1 - 1e-13) && analytic <= exact * (1 + 1e-8), `${analytic} vs ${exact}`);
    const shown = await page.locator('[data-results="calibrate"] tr[data-row="analytic"] .noise').textContent();
    assert.equal(shown, 'σ = 11.798'); // 11.79735… rounded up: more noise is the safe side
    // The PLD bound is an upper bound on the same exact ε: at least as much noise, within 0.2%.
    const pld = await noiseOf(page, 'pld');
    assert.ok(pld >= analytic && pld <= analytic * 1.002, `${pld} vs ${analytic}`);
    assert.ok((await noiseOf(page, 'zcdp')) > pld);
    assert.match(
      await page.locator('[data-summary="calibrate"]').textContent(),
      /^σ = 11\.798 meets ε = 1, δ = 1e-5 over k = 10/,
    );
    assert.equal(await page.locator('[data-plots="calibrate"] svg.dp-plot').count(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test(
  'DP-SGD preset: the noise multiplier agrees with dp_accounting, and the permalink keeps it',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session);
    let hash;
    try {
      await goToSection(page, 'calibrate');
      await page.click('#calibrate [data-preset]');
      await page.fill('#calibrate-sensitivity', '2');
      await waitForAllSections(page);
      await waitForPld(page);
      // dp_accounting b5b0286 calibrate_dp_mechanism, PLDAccountant(1e-4), q = 0.01, T = 1000,
      // ε = 1, δ = 1e-5: z = 1.4146308374757288. Ours stops within 0.1% below the target ε.
      const z = await noiseOf(page, 'pld');
      assert.ok(Math.abs(z / 1.4146308374757288 - 1) < 2e-3, String(z));
      assert.match(
        await page.locator('[data-results="calibrate"] tr[data-row="pld"] .answer').textContent(),
        /σ = z·C = 2\.83/,
      );
      assert.match(
        await page.locator('[data-results="calibrate"] tr[data-row="pld"] .answer').textContent(),
        /composes back to ε ≤ 0\.99/,
      );
      hash = await page.evaluate(() => location.hash);
      assert.equal(hash, '#/calibrate?v=0.3.0&mechanism=dpsgd&sensitivity=2&rate=0.01&count=1000&epsilon=1&delta=1e-5');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
    const second = await openPage(session, { hash });
    try {
      await waitForPld(second.page);
      assert.equal(await second.page.inputValue('#calibrate-mechanism'), 'dpsgd');
      assert.ok(Math.abs((await noiseOf(second.page, 'pld')) / 1.4146308374757288 - 1) < 2e-3);
      assert.deepEqual(second.problems, []);
    } finally {
      await second.context.close();
    }
  },
);

test('Laplace with δ = 0: b = kΔ/ε, and the rows that need δ > 0 say so', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, {
    hash: '#/calibrate?mechanism=laplace&count=10&epsilon=0.5&delta=0&sensitivity=2',
  });
  try {
    await page.waitForSelector('[data-results="calibrate"] tr[data-row="basic"][data-ok="true"]');
    assert.equal(await noiseOf(page, 'basic'), 40); // 10 · 2 / 0.5 (Dwork & Roth 2014, Thm 3.16)
    for (const row of ['pld', 'optimal']) {
      const text = await page.locator(`[data-results="calibrate"] tr[data-row="${row}"] .answer`).textContent();
      assert.match(text, /Needs δ > 0/, row);
    }
    assert.equal(await page.locator('#calibrate-delta').getAttribute('aria-invalid'), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a target no Gaussian can meet is explained beside its field', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/calibrate?delta=0' });
  try {
    await page.waitForSelector('#calibrate-delta[aria-invalid="true"]');
    assert.match(await page.locator('#calibrate-delta-error').textContent(), /must be greater than 0/);
    await page.fill('#calibrate-delta', '1e-6');
    await page.waitForSelector('[data-results="calibrate"] tr[data-row="analytic"][data-ok="true"]');
    assert.equal(await page.locator('#calibrate-delta').getAttribute('aria-invalid'), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
