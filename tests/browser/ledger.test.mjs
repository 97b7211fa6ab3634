// The Composition ledger: rows added and removed, their totals and shares; the ledger in a
// permalink; the relation switch (where the core takes `relation`); the worked example (where the
// core has its mechanisms); axe-core and the 390 px layout with a ledger of several releases.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { axeViolations, openPage, coreSchema, sessionForFile, waitForBound } from './helpers.mjs';

const session = sessionForFile();
let schema;
before(async () => {
  schema = await coreSchema();
});

const kTimeout = { timeout: 240_000 };
const results = '[data-results="composition"]';
const pldDone = '[data-numeric-status="composition-pld"][data-state="done"]';

const ledgerHash = (rows) => `#/composition?ledger=${encodeURIComponent(JSON.stringify(rows))}`;
// 100 pure 0.1-DP releases and 1 Laplace release with b = 10, Δ = 1 (pure ε = Δ/b = 0.1).
const twoPure = [
  { count: '100', guarantee: { epsilon: '0.1', delta: '0' } },
  { count: '1', mechanism: { type: 'laplace', scale: '10', sensitivity: '1' } },
];
const threeMechanisms = [
  { count: '10', mechanism: { type: 'laplace', scale: '10', sensitivity: '1' } },
  { count: '20', mechanism: { type: 'gaussian', sigma: '5', sensitivity: '1' } },
  {
    count: '100',
    mechanism: {
      type: 'poisson_subsampled',
      rate: '0.01',
      mechanism: { type: 'gaussian', sigma: '1', sensitivity: '1' },
    },
  },
];

async function shares(page) {
  return page.$$eval(`${results} [data-share]`, (elements) => elements.map((element) => Number(element.dataset.share)));
}

test('ledger rows are added and removed, and the totals and shares follow', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/composition' });
  try {
    // Basic composition (Dwork & Roth 2014, Thm 3.16): 100 × 0.1 = 10.
    await waitForBound(page, 'composition', 'basic', 'ε ≤ 10');
    assert.equal(await page.locator('#composition .ledger-row').count(), 1);
    assert.equal(await page.locator('#composition [data-ledger-remove]').isDisabled(), true, 'one release stays');

    // A new release is the first mechanism of the catalog (Laplace, b = 10, Δ = 1), once.
    await page.click('#composition [data-ledger-add]');
    assert.equal(await page.locator('#composition .ledger-row').count(), 2);
    assert.equal(await page.locator('#composition-release-2-type').inputValue(), 'laplace');
    // 100 × 0.1 + 1 × Δ/b = 10.1 (Dwork & Roth 2014, Thm 3.16; the Laplace mechanism is Δ/b-DP).
    await waitForBound(page, 'composition', 'basic', 'ε ≤ 10.1');
    // zCDP adds ρ = ε²/2 per pure release (Bun & Steinke 2016, Prop 1.4, Lemma 2.3): 100 × 0.005
    // against 0.005, so the shares are 100/101 and 1/101.
    await page.waitForFunction(
      (selector) => document.querySelectorAll(selector).length === 2,
      `${results} [data-share]`,
    );
    const [first, second] = await shares(page);
    assert.ok(Math.abs(first - 100 / 101) < 1e-12 && Math.abs(second - 1 / 101) < 1e-12, `${first}, ${second}`);

    await page.fill('#composition-release-2-count', '50');
    // 10 + 50 × 0.1 = 15.
    await waitForBound(page, 'composition', 'basic', 'ε ≤ 15');

    // Removing the first release leaves 50 Laplace releases: 50 × 0.1 = 5.
    await page.click('#composition [data-ledger-remove="0"]');
    assert.equal(await page.locator('#composition .ledger-row').count(), 1);
    await waitForBound(page, 'composition', 'basic', 'ε ≤ 5');
    assert.equal(await page.locator('#composition-release-1-type').inputValue(), 'laplace');
    assert.match(await page.locator(`${results} caption`).first().textContent(), /^50 × /);
    await page.waitForSelector(pldDone, { timeout: 200_000 });
    // The tightest method is marked, and only one.
    assert.equal(await page.locator(`${results} tr[data-best]`).count(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a ledger round-trips through its permalink', kTimeout, async () => {
  const first = await openPage(session, { hash: ledgerHash(twoPure) });
  let href;
  let basic;
  try {
    await waitForBound(first.page, 'composition', 'basic', 'ε ≤ 10.1');
    // Edited on the page: a third release, a Poisson-subsampled mechanism around the default inner one.
    await first.page.click('#composition [data-ledger-add]');
    await first.page.selectOption('#composition-release-3-type', 'poisson_subsampled');
    await first.page.fill('#composition-release-3-rate', '0.02');
    await first.page.fill('#composition-release-3-count', '30');
    await first.page.waitForFunction(() =>
      document.querySelector('#composition [data-permalink]').href.includes('0.02'),
    );
    href = await first.page.locator('#composition [data-permalink]').getAttribute('href');
    // The results of the edited ledger, not a stale PLD row of an intermediate one (the caption
    // and the numeric status are replaced together).
    await first.page.waitForFunction(() => {
      const caption = document.querySelector('[data-results="composition"] caption')?.textContent ?? '';
      return caption.includes('; 30 × ') && caption.includes('0.02');
    });
    await first.page.waitForSelector(pldDone, { timeout: 200_000 });
    basic = await first.page.locator(`${results} tr[data-row="pld"] .bound`).first().textContent();
    assert.deepEqual(first.problems, []);
  } finally {
    await first.context.close();
  }
  const { ledger } = Object.fromEntries(new URLSearchParams(new URL(href).hash.split('?')[1]));
  const rows = JSON.parse(ledger);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows.slice(0, 2), twoPure);
  assert.equal(rows[2].count, '30');
  assert.equal(rows[2].mechanism.type, 'poisson_subsampled');
  assert.equal(rows[2].mechanism.rate, '0.02');

  const second = await openPage(session, { hash: new URL(href).hash });
  try {
    await second.page.waitForSelector(pldDone, { timeout: 200_000 });
    assert.equal(await second.page.locator('#composition .ledger-row').count(), 3);
    assert.equal(await second.page.locator('#composition-release-3-type').inputValue(), 'poisson_subsampled');
    assert.equal(await second.page.locator('#composition-release-3-rate').inputValue(), '0.02');
    assert.equal(await second.page.locator('#composition-release-3-count').inputValue(), '30');
    // The same requests give the same bound.
    assert.equal(await second.page.locator(`${results} tr[data-row="pld"] .bound`).first().textContent(), basic);
    assert.equal(await second.page.locator('#composition [data-notice]').isHidden(), true);
    assert.equal(
      await second.page.locator('#composition [data-permalink]').getAttribute('href'),
      href,
      'the link it writes is the one it was opened with',
    );
    assert.deepEqual(second.problems, []);
  } finally {
    await second.context.close();
  }
});

test('a ledger that is not one is refused with a sentence, and the section stays usable', kTimeout, async () => {
  const { page, context } = await openPage(session, { hash: '#/composition?ledger=%5B1%2C2' });
  try {
    await page.waitForSelector(`${results}[data-ready="true"]`);
    assert.match(await page.locator('#composition [data-notice]').textContent(), /the ledger is not readable/);
    assert.equal(await page.locator('#composition .ledger-row').count(), 1);
  } finally {
    await context.close();
  }
});

test(
  'the relation switch appears where the core takes a relation, and is sent only when not the default',
  kTimeout,
  async () => {
    const takes = [schema.shapes.compose.fields, ...(schema.shapes.compose.variants ?? []).map((v) => v.fields)]
      .flat()
      .some((field) => field.name === 'relation');
    const { page, context, problems } = await openPage(session, { hash: ledgerHash(threeMechanisms.slice(0, 2)) });
    try {
      await page.waitForSelector(pldDone, { timeout: 200_000 });
      const field = page.locator('#composition .field[data-field="relation"]');
      assert.equal(await field.isVisible(), takes);
      assert.doesNotMatch(await page.evaluate(() => location.hash), /relation/, 'the default is not in the link');
      if (takes) {
        const pldEpsilon = async () =>
          Number(await page.locator(`${results} tr[data-row="pld"] .bound`).first().getAttribute('data-epsilon'));
        const addRemove = await pldEpsilon();
        // The recomputation replaces the row: wait for a new one that is done (it may never be
        // seen running, the engine is fast).
        await page.locator(`${results} tr[data-row="pld"]`).evaluate((row) => row.setAttribute('data-stale', ''));
        await page.selectOption('#composition-relation', 'substitute');
        await page.waitForFunction(() => location.hash.includes('relation=substitute'));
        await page.waitForSelector(`${results} tr[data-row="pld"][data-status="done"]:not([data-stale])`, {
          timeout: 200_000,
        });
        await page.waitForSelector(pldDone, { timeout: 200_000 });
        // Replacing a record moves a Laplace or Gaussian query by up to its sensitivity, as adding or
        // removing one does: substitution is never below add/remove (the property test).
        const substitute = await pldEpsilon();
        assert.ok(substitute >= addRemove * (1 - 1e-9), `substitute ${substitute} ≥ add/remove ${addRemove}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test("the statistics office's year is one click away where the core has its mechanisms", kTimeout, async () => {
  const names = schema.mechanisms?.map((type) => type.name) ?? [];
  const complete = ['discrete_gaussian', 'exponential', 'randomized_response'].every((name) => names.includes(name));
  const { page, context, problems } = await openPage(session, { hash: '#/composition' });
  try {
    await page.waitForSelector(`${results}[data-ready="true"]`);
    assert.equal(await page.locator('#composition [data-ledger-example]').count(), complete ? 1 : 0);
    if (complete) {
      await page.click('#composition [data-ledger-example]');
      await page.waitForSelector(pldDone, { timeout: 200_000 });
      assert.deepEqual(
        await page.$$eval('#composition .ledger-row select[id$="-type"]', (selects) =>
          selects.filter((select) => /^composition-release-\d+-type$/.test(select.id)).map((select) => select.value),
        ),
        ['discrete_gaussian', 'exponential', 'randomized_response'],
      );
      // Randomized response is accounted under substitution (as in dp_accounting): the example says so.
      assert.equal(await page.locator('#composition-relation').inputValue(), 'substitute');
      // The example's own PLD answer (the wait above may see the previous ledger's finished row).
      await page.waitForSelector(`${results} tr[data-row="pld"][data-ok="true"]`, { timeout: 200_000 });
      // Each release's share of the ledger's total ρ sums to the whole.
      const parts = await shares(page);
      if (parts.length) assert.ok(Math.abs(parts.reduce((a, b) => a + b, 0) - 1) < 1e-12, `${parts}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// A statistics office's year with the default neighbours "one record added or removed": randomized
// response has a bound under substitution only (a respondent's answer changes; Warner 1965), so the
// page says so once, marks the relation input, and switches it in one click.
const officeYear = [
  { count: '12', mechanism: { type: 'discrete_gaussian', sigma: '5', sensitivity: '1' } },
  { count: '4', mechanism: { type: 'randomized_response', noise_parameter: '0.5', num_buckets: '2' } },
  { count: '20', mechanism: { type: 'exponential', epsilon: '0.5' } },
];

test(
  'a ledger refused under the relation chosen offers, in one click, the one every release supports',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, { hash: ledgerHash(officeYear) });
    try {
      const summary = page.locator('[data-summary="composition"]');
      await page.waitForFunction(() =>
        /^No answer: release 2/.test(document.querySelector('[data-summary="composition"]').textContent),
      );
      assert.equal(
        await summary.textContent(),
        'No answer: release 2 (randomized response) has no bound under “one record added or removed”. Every release has one under “one record replaced”: switch to it below.',
      );
      // The field to change is marked, in the page's words; no API name shows anywhere.
      const relation = page.locator('#composition-relation');
      assert.equal(await relation.getAttribute('aria-invalid'), 'true');
      const field = await page.locator('#composition .field[data-field="relation"]').textContent();
      assert.match(
        field,
        /Release 2 \(randomized response\) has no bound under this choice: choose “one record replaced”\./,
      );
      const section = await page.locator('#composition').textContent();
      assert.doesNotMatch(section, /add_remove|substitute'|items\.\d|mechanism\.type|give that relation/);

      await page.click('#composition [data-relation-switch="substitute"]');
      assert.equal(await relation.inputValue(), 'substitute');
      await page.waitForSelector(`${results} tr[data-row="pld"][data-ok="true"]`, { timeout: 200_000 });
      await page.waitForSelector(pldDone, { timeout: 200_000 });
      assert.equal(await relation.getAttribute('aria-invalid'), null);
      assert.match(await summary.textContent(), /ε ≤ [\d.]+ at δ = /);
      assert.match(await page.evaluate(() => location.hash), /relation=substitute/);
      // The sentence for a paper names the relation it holds under.
      await page.click('#composition .cite-result summary');
      assert.match(
        await page.locator('#composition [data-cite-sentence]').textContent(),
        /^12 × discrete Gaussian mechanism \(σ = 5, Δ = 1\); 4 × randomized response \(p = 0\.5, 2 buckets\); .* Inputs: .*4 × randomized response \(noise parameter p = 0\.5, number of buckets = 2\).*, neighbouring relation: one record replaced\. /,
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test('with a ledger: no axe-core violation, and no sideways scroll at 390 px', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { bypassCSP: true, hash: ledgerHash(threeMechanisms) });
  try {
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [390, 'light'],
      [390, 'dark'],
    ]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await page.waitForSelector(pldDone, { timeout: 200_000 });
      assert.deepEqual(await axeViolations(page), [], `${width} px, ${colorScheme}`);
      if (width === 390) {
        const [scrollWidth, clientWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ]);
        assert.ok(scrollWidth <= clientWidth, `the page scrolls sideways at 390 px: ${scrollWidth} > ${clientWidth}`);
      }
      if (process.env.DPCALC_SCREENSHOTS)
        await page
          .locator('#composition')
          .screenshot({ path: path.join(process.env.DPCALC_SCREENSHOTS, `ledger-${width}-${colorScheme}.png`) });
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
