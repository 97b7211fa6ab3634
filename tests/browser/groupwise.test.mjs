// The Group-wise relative error section in headless Chromium: Figure 1 of Pujol & Desfontaines (2023), the
// estimated guarantee per group size beside the proven ρ (labelled as a numerical estimate), D_α/α
// against α, the plain statement of what is proven, and Cancel. The numbers themselves are tested
// natively against mpmath and the theory (tests/core/groupwise_*_test.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openMoreOptions, openPage, sessionForFile } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 240_000 };
const status = '[data-numeric-status="groupwise-numeric"]';
const link = (fields) =>
  `#/groupwise?${new URLSearchParams({
    rho: '0.005',
    relative_error: '0.3',
    delta: '1e-6',
    counts: '10, 1000, 100000',
    group: '10000',
    samples: '100000',
    seed: '1',
    ...fields,
  })}`;

test('group-wise section: Figure 1, estimates beside the proven ρ, D_α/α, and what is proven', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: link({}) });
  try {
    await page.waitForSelector(`${status}[data-state="done"]`, { timeout: 200_000 });
    const rows = page.locator('[data-results="groupwise"] table.groupwise-groups tbody tr');
    assert.equal(await rows.count(), 3);
    const estimates = [];
    for (let i = 0; i < 3; i++) estimates.push(Number(await rows.nth(i).getAttribute('data-rho-estimate')));
    assert.ok(
      estimates.every((value) => value > 0 && value <= 0.005),
      `${estimates}`,
    );
    assert.ok(estimates[0] > estimates[1] && estimates[1] > estimates[2], 'larger groups, smaller estimate');
    const statement = await page.locator('[data-results="groupwise"] [data-statement]').textContent();
    assert.match(statement, /Proven:.*ρ = 0\.005/);
    assert.match(statement, /numerical estimate, not a proof/);
    assert.match(statement, /Open question/);
    assert.equal(
      await page.locator('[data-plots="groupwise"] svg.dp-plot').count(),
      3,
      'Figure 1, ρ against x, D_α/α against α',
    );
    assert.match(await page.locator('[data-plots="groupwise"] figcaption').first().textContent(), /Figure 1/);
    assert.match(await page.locator('[data-summary="groupwise"]').textContent(), /numerical estimate, not a proof/);
    // Cited by key: the open problem and Bun & Steinke for what is proven, which the attacker panel
    // explains again (the export bar cites the registry its deployment record follows).
    const cited = await page.$$eval('#groupwise cite:not(.export-bar cite)', (cites) =>
      cites.map((cite) => cite.dataset.keys),
    );
    assert.deepEqual(cited, [
      'bun2016concentrated canonne2020discrete',
      'pujol2023open',
      'bun2016concentrated canonne2020discrete',
    ]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('group-wise section: a bad group size is marked, and Cancel stops a long simulation', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: link({ counts: '10, 2.5' }) });
  try {
    await page.waitForSelector(`${status}[data-state="error"]`, { timeout: 200_000 });
    // Named by its place in the list, not by its request path (counts.1).
    assert.match(
      await page.locator('[data-results="groupwise"]').textContent(),
      /Group size 2 of the list must be a whole number/,
    );
    assert.equal(await page.locator('#groupwise-counts').getAttribute('aria-invalid'), 'true');
    await page.fill('#groupwise-counts', '10');
    // Its own simulation first ends, so that Cancel below stops the long one and not this one.
    await page.waitForSelector(`${status}[data-state="done"]`, { timeout: 200_000 });
    await openMoreOptions(page, 'groupwise');
    await page.fill('#groupwise-samples', '10000000');
    await page.waitForSelector(`${status}[data-state="running"] button.cancel`, { timeout: 200_000 });
    await page.click(`${status} button.cancel`);
    await page.waitForSelector(`${status}[data-state="cancelled"]`, { timeout: 200_000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test(
  'a statistic is rounded to the nearest, not up like a bound: the simulated mean 10001.30 is 10001',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, {
      hash: '#/groupwise?v=0.2.0&counts=10000&group=10000&samples=1000000&seed=1',
    });
    try {
      await page.waitForSelector(`${status}[data-state="done"]`, { timeout: 200_000 });
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.click('#groupwise [data-export-action="json"]'),
      ]);
      const exported = JSON.parse(await readFile(await file.path(), 'utf8'));
      const { mean, sd } = exported.computations.find((entry) => entry.request.op === 'groupwise_simulate').response
        .result.fit;
      // The mean of this simulation (σ² = 100, r = 0.3, x = 10000, 10⁶ samples, seed 1) is near 10001.3:
      // to five digits it is 10001; rounded up, as a bound would be, it would read 10002.
      assert.ok(Math.abs(mean - 10001.3) < 0.05, String(mean));
      const legend = await page.locator('[data-plots="groupwise"] figure').first().locator('.legend').textContent();
      assert.match(legend, new RegExp(`mean ${Number(mean.toPrecision(5))}, sd ${Number(sd.toPrecision(5))}\\)`));
      assert.match(legend, /mean 10001,/);
      // Estimates in the table: rounded to the nearest as well, each labelled as an estimate.
      const row = page.locator('[data-results="groupwise"] table.groupwise-groups tbody tr').first();
      const estimate = Number(await row.getAttribute('data-rho-estimate'));
      const shown = (await row.locator('td').nth(1).textContent()).replace('≈ ', '');
      assert.ok(shown.startsWith(estimateText(estimate)), `${shown} vs ${estimate}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

/** A number to 5 significant digits, rounded to the nearest, as the page writes it (1.2345 × 10⁻⁸). */
function estimateText(x) {
  const rounded = Number(x.toPrecision(5));
  if (rounded >= 1e-3 && rounded < 1e6) return String(rounded);
  const [mantissa, exponent] = rounded.toExponential().split('e');
  const raised = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
  return `${mantissa} × 10${String(Number(exponent)).replace(/[-0-9]/g, (c) => raised[c])}`;
}
