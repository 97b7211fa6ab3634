// The Group-wise relative error section (issue 10) in headless Chromium: the seed's Figure 1, the
// estimated guarantee per group size beside the proven ρ (labelled as a numerical estimate), D_α/α
// against α, the plain statement of what is proven, and Cancel. The numbers themselves are tested
// natively against mpmath and the theory (tests/core/groupwise_*_test.cpp).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startSession } from './helpers.mjs';

let session;
before(async () => {
  session = await startSession();
});
after(async () => {
  await session?.close();
});

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
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('group-wise section: a bad group size is marked, and Cancel stops a long simulation', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: link({ counts: '10, 2.5' }) });
  try {
    await page.waitForSelector(`${status}[data-state="error"]`, { timeout: 200_000 });
    assert.match(await page.locator('[data-results="groupwise"]').textContent(), /counts\.1 must be a whole number/);
    await page.fill('#groupwise-counts', '10');
    await page.fill('#groupwise-samples', '10000000');
    await page.waitForSelector(`${status}[data-state="running"] button.cancel`, { timeout: 200_000 });
    await page.click(`${status} button.cancel`);
    await page.waitForSelector(`${status}[data-state="cancelled"]`, { timeout: 200_000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
