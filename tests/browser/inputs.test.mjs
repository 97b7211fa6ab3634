// Inputs and words on the page: a DP-SGD step takes a noise multiplier and a clip norm (the clip
// norm does not change ε), messages are in words rather than the API's internals, and the inputs
// take back what the page prints (1 × 10⁻⁵, 1E−5, 10^-6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goToSection, openMoreOptions, openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };
const pldRow = '[data-results="composition"] tr[data-row="pld"]';
const dpSgd = (clipNorm) =>
  `#/composition?kind=subsampled_gaussian&noise_multiplier=1&clip_norm=${clipNorm}&rate=0.01&count=1000&delta=1e-5&kmax=1000`;

async function pldEpsilon(page) {
  await page.waitForSelector(`${pldRow}[data-status="done"][data-ok="true"]`);
  return Number(await page.locator(`${pldRow} .bound`).getAttribute('data-epsilon'));
}

// The σ of the Poisson-subsampled Gaussian was once labelled "noise multiplier" but used as the
// absolute noise, so a DP-SGD user entering clip norm 2 got ε = 13.36 instead of 1.83. Links of that
// form (noise multiplier and clip norm) are now read as one release of the ledger: the
// Poisson-subsampled Gaussian with σ = noise multiplier × clip norm and Δ = clip norm.
test(
  'a DP-SGD link takes a noise multiplier and a clip norm, and the clip norm does not change ε',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, { hash: dpSgd(2) });
    try {
      const withClipNormTwo = await pldEpsilon(page);
      assert.equal(await page.locator('#composition-release-1-type').inputValue(), 'poisson_subsampled');
      assert.equal(await page.locator('#composition-release-1-mechanism-sigma').inputValue(), '2');
      assert.equal(await page.locator('#composition-release-1-mechanism-sensitivity').inputValue(), '2');
      // Noise multiplier 1, q = 0.01, 1000 steps, δ = 1e-5: ε ≈ 1.83 (the value; dp_accounting's
      // PLD accountant gives 1.8271 at the same parameters). σ = 2 at clip norm 2 is the same mechanism.
      assert.ok(Math.abs(withClipNormTwo - 1.83) < 0.01, `ε = ${withClipNormTwo}`);
      await page.fill('#composition-release-1-mechanism-sigma', '1');
      await page.fill('#composition-release-1-mechanism-sensitivity', '1');
      await page.waitForFunction(() =>
        document.querySelector('[data-results="composition"] caption').textContent.includes('σ = 1, Δ = 1'),
      );
      assert.ok(Math.abs((await pldEpsilon(page)) - withClipNormTwo) < 1e-9 * withClipNormTwo);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

// Internal messages ("use method 'pld'", "guarantee.delta must be …", "(got NaN)"), the page's own
// number format rejected as input, numeric keypads without "e" or "-", and an empty ε-vs-steps plot
// for DP-SGD were all seen once.
test(
  'words, not internals; inputs take what the page prints; the DP-SGD ε-vs-steps plot has its curve',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, { hash: '#/composition?kind=gaussian&count=100' });
    try {
      await page.waitForSelector(`${pldRow}[data-status="done"]`);
      for (const row of ['basic', 'parallel', 'advanced-drv', 'advanced-kov', 'optimal']) {
        const text = await page.locator(`[data-results="composition"] tr[data-row="${row}"] .answer`).textContent();
        assert.match(text, /^Does not apply: .*Gaussian mechanism has none.* The zCDP and PLD rows compose it\.$/, row);
      }
      assert.equal(await page.locator('[data-results="composition"] .row-error').count(), 0);
      assert.doesNotMatch(await page.locator('#composition').textContent(), /use method|'pld'|items\.0|got NaN/);

      await goToSection(page, 'group');
      await page.fill('#group-delta', '1.5');
      await page.waitForSelector('#group-delta[aria-invalid="true"]');
      assert.equal(
        await page.locator('#group-delta-error').textContent(),
        'δ must be below 1 (δ = 1 promises nothing).',
      );
      assert.equal(
        await page.locator('[data-results="group"] tr[data-row="approx"] .row-error').textContent(),
        'Check the marked field: δ must be below 1 (δ = 1 promises nothing).',
      );
      await page.fill('#group-epsilon', '-1');
      await page.waitForSelector('#group-epsilon[aria-invalid="true"]');
      assert.equal(await page.locator('#group-epsilon-error').textContent(), 'ε must be 0 or more.');
      await page.fill('#group-epsilon', 'abc');
      await page.waitForFunction(() =>
        document.querySelector('#group-epsilon-error').textContent.startsWith('“abc” is not a number'),
      );

      // What the page prints, typed back: the same answers as plain decimals (the same inputs set in
      // both, so that the rows marked as examples are the same too).
      await page.fill('#group-epsilon', '0.5');
      await page.fill('#group-delta', '1e-6');
      await openMoreOptions(page, 'group');
      await page.fill('#group-gaussian-delta', '1e-5');
      await page.fill('#group-sigma', '2.0');
      await waitForAllSections(page);
      const plain = await page.locator('[data-results="group"]').textContent();
      await page.fill('#group-delta', '1 × 10⁻⁶');
      await page.fill('#group-gaussian-delta', '1E−5');
      await page.fill('#group-epsilon', '5 × 10^-1');
      await page.fill('#group-sigma', '2');
      await waitForAllSections(page);
      assert.equal(await page.locator('#group [aria-invalid="true"]').count(), 0);
      assert.equal(await page.locator('[data-results="group"]').textContent(), plain);
      await page.fill('#group-delta', '10^-6');
      await waitForAllSections(page);
      assert.equal(await page.locator('[data-results="group"]').textContent(), plain);
      const modes = await page.$$eval('#group input[name]:not([type="hidden"])', (inputs) =>
        Object.fromEntries(inputs.map((input) => [input.name, input.inputMode])),
      );
      assert.deepEqual(modes, {
        k: 'numeric',
        kmax: 'numeric',
        epsilon: 'text',
        delta: 'text',
        rho: 'text',
        sensitivity: 'text',
        scale: 'text',
        sigma: 'text',
        gaussian_delta: 'text',
        target_epsilon: 'text',
        target_delta: 'text',
      });

      // DP-SGD: the ε-vs-steps plot shows the PLD's curve (no closed form applies).
      await page.goto(session.url + dpSgd(1));
      await page.waitForFunction(
        () =>
          /oisson/.test(document.querySelector('[data-results="composition"] caption')?.textContent) &&
          document.querySelector('[data-numeric-status="composition-pld"]')?.dataset.state === 'done',
      );
      const steps = page.locator('[data-plots="composition"] figure', {
        hasText: 'ε against the number of compositions',
      });
      assert.equal(await steps.locator('svg.dp-plot').count(), 1);
      // No closed form composes a subsampled mechanism; its Rényi DP (Mironov, Talwar, Zhang 2019) and
      // the PLD do.
      assert.deepEqual(await steps.locator('.legend li').allTextContents(), [
        'Rényi DP composition',
        'PLD upper bound',
      ]);
      assert.ok((await steps.locator('details.data-table tbody tr').count()) >= 6);
      assert.deepEqual(
        problems.filter((problem) => !/net::ERR_ABORTED$/.test(problem)),
        [],
      );
    } finally {
      await context.close();
    }
  },
);
