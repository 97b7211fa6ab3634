// The numeric (PLD) composition on the page: its row agrees with the JS API called in the page
// itself and with the published DP-SGD reference, shows its bracket and a privacy-profile plot with
// a table; a long computation shows progress, can be cancelled while closed forms keep answering,
// and is cancelled by a new input whose result then appears. No sleeps: every wait is on content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  goToSection,
  openMoreOptions,
  openPage,
  sessionForFile,
  waitForAllSections,
  waitForBound,
} from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };
const pldRow = '[data-results="composition"] tr[data-row="pld"]';
const pldStatus = '[data-numeric-status="composition-pld"]';
// DP-SGD with noise multiplier 1, sampling rate 0.01, 10⁴ steps, δ = 1e-5: ε ≈ 6.19 (the
// reference, dp_accounting's PLD accountant at step 1e-4; docs/API.md lists 6.1904).
const kDpSgdReference = 6.19;
// The count of the computation the tests catch running. The engine answers 10⁷ steps in about a
// second, too fast to be caught reliably, so holdSlowRequests keeps that request from ever reaching
// the worker: the page sees a computation that runs until it is cancelled.
const kSlowCount = '10000000';

/** Holds every PLD composition of kSlowCount releases (it stays "running" until cancelled). */
async function holdSlowRequests(page) {
  await page.addInitScript((count) => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function heldPostMessage(message, ...rest) {
      const request = message?.request;
      const numeric = request?.op === 'compose' && request.method === 'pld';
      if (numeric && JSON.stringify(request.items).includes(`"count":${count}`)) return undefined;
      return post.call(this, message, ...rest);
    };
  }, Number(kSlowCount));
}

/** Counts the workers the page terminates (cancelling a computation replaces its worker). */
async function countTerminatedWorkers(page) {
  await page.addInitScript(() => {
    const terminate = Worker.prototype.terminate;
    window.terminatedWorkers = 0;
    Worker.prototype.terminate = function countedTerminate() {
      window.terminatedWorkers += 1;
      return terminate.call(this);
    };
  });
}

async function openDpSgdPage(options = {}) {
  const opened = await openPage(session, { hash: '#/composition', ...options });
  await holdSlowRequests(opened.page);
  await opened.page.reload();
  await waitForAllSections(opened.page);
  // The example sits with the numeric method's settings, under "More options".
  await openMoreOptions(opened.page, 'composition');
  await opened.page.click('#composition button[data-preset]');
  await opened.page.waitForSelector(`${pldRow}[data-status="done"][data-ok="true"]`);
  await waitForAllSections(opened.page);
  return opened;
}

test(
  'the PLD row answers DP-SGD exactly as the JS API does, with its bracket and a privacy-profile plot',
  kTimeout,
  async () => {
    const { page, context, problems } = await openDpSgdPage();
    try {
      const shown = await page.locator(`${pldRow} .bound`).getAttribute('data-epsilon');
      const direct = await page.evaluate(async () => {
        const { createCalculator } = await import('/dpcalc.js');
        const calc = await createCalculator();
        return calc.compute({
          op: 'compose',
          method: 'pld',
          delta: 1e-5,
          items: [
            {
              mechanism: {
                type: 'poisson_subsampled',
                rate: 0.01,
                mechanism: { type: 'gaussian', sigma: 1, sensitivity: 1 },
              },
              count: 10000,
            },
          ],
        });
      });
      assert.equal(direct.ok, true);
      assert.equal(Number(shown), direct.result.epsilon_upper);
      assert.ok(Math.abs(Number(shown) - kDpSgdReference) / kDpSgdReference < 0.005, `ε = ${shown}`);
      assert.match(await page.locator(`${pldRow} .bound`).textContent(), /^ε ≤ 6\.\d+ at δ = 1 × 10⁻⁵$/);

      const bracket = page.locator(`${pldRow} .bracket`);
      assert.equal(Number(await bracket.getAttribute('data-lower')), direct.result.epsilon_lower);
      assert.equal(Number(await bracket.getAttribute('data-upper')), direct.result.epsilon_upper);
      assert.match(await bracket.textContent(), /^exact ε ∈ \[6\.\d+, 6\.\d+\]$/);
      assert.match(await page.locator(`${pldRow} .note`).textContent(), /grid step .*points/);
      assert.equal(await page.locator(pldStatus).getAttribute('data-state'), 'done');

      // Closed forms cannot compose a subsampled mechanism: their rows say so in words, no field marked.
      for (const row of ['basic', 'advanced-kov', 'optimal', 'zcdp']) {
        const locator = page.locator(`[data-results="composition"] tr[data-row="${row}"]`);
        assert.equal(await locator.getAttribute('data-applies'), 'false', row);
        assert.match(
          await locator.locator('.not-applicable').textContent(),
          /^Does not apply: .* The PLD row below gives its bound\.$/,
          row,
        );
      }
      assert.equal(await page.locator('[data-section="composition"] [aria-invalid="true"]').count(), 0);

      // The privacy profile: a chart, and its table with the PLD's upper and lower δ.
      const profile = page.locator('[data-plots="composition"] figure', { hasText: 'Privacy profile' });
      assert.equal(await profile.locator('svg.dp-plot').count(), 1);
      const table = profile.locator('details.data-table table');
      assert.ok((await table.locator('tbody tr', { hasText: 'PLD upper bound' }).count()) > 10);
      assert.ok((await table.locator('tbody tr', { hasText: 'PLD lower bound' }).count()) > 10);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test('the ledger and PLD settings live in the permalink, and are validated inline', kTimeout, async () => {
  const first = await openDpSgdPage();
  let hash;
  let text;
  try {
    hash = await first.page.evaluate(() => location.hash);
    text = await first.page.locator(`${pldRow} .answer`).textContent();
    assert.match(hash, /^#\/composition\?v=0\.3\.0&ledger=/);
    assert.deepEqual(first.problems, []);
  } finally {
    await first.context.close();
  }
  const second = await openPage(session, { hash });
  const { page, problems } = second;
  try {
    assert.equal(await page.inputValue('#composition-release-1-type'), 'poisson_subsampled');
    assert.equal(await page.inputValue('#composition-release-1-rate'), '0.01');
    await page.waitForSelector(`${pldRow}[data-ok="true"]`);
    assert.equal(await page.locator(`${pldRow} .answer`).textContent(), text);
    await page.fill('#composition-pld-step', '-1');
    await page.waitForSelector('#composition-pld-step[aria-invalid="true"]');
    await page.waitForSelector(`${pldRow}[data-ok="false"]`);
    await page.fill('#composition-pld-step', '');
    await page.waitForSelector('#composition-pld-step:not([aria-invalid])');
    await page.waitForSelector(`${pldRow}[data-ok="true"]`);
    assert.equal(await page.locator(`${pldRow} .answer`).textContent(), text);
    assert.deepEqual(problems, []);
  } finally {
    await second.context.close();
  }
});

test('Cancel stops a long computation, shows "cancelled", and closed forms keep answering', kTimeout, async () => {
  const { page, context, problems } = await openDpSgdPage();
  try {
    await page.fill('#composition-release-1-count', kSlowCount);
    await page.waitForSelector(`${pldStatus}[data-state="running"] progress`);
    // Closed forms answer while the numeric work runs, and coming back does not restart it.
    await goToSection(page, 'group');
    await page.fill('#group-k', '9');
    await waitForBound(page, 'group', 'pure', `ε ≤ ${9 * 0.5}`);
    assert.equal(
      await page.locator(`${pldRow}`).getAttribute('data-status'),
      'running',
      'the group section answered while the PLD was still running',
    );
    // By its link: Back may first undo the edit of k, which is a step of its own after a pause.
    await page.click('nav a[href="#/composition"]');
    await page.waitForSelector('#composition:not([hidden])');
    const label = await page.locator(`${pldStatus} label`).textContent();
    assert.match(label, /^PLD composition: (starting…|\d+%)$/);

    await page.click(`${pldStatus} button:text("Cancel")`);
    await page.waitForSelector(`${pldStatus}[data-state="cancelled"]`);
    assert.match(await page.locator(pldStatus).textContent(), /cancelled/);
    assert.equal(await page.locator(`${pldRow}`).getAttribute('data-status'), 'cancelled');
    assert.equal(await page.locator(`${pldRow} .answer`).textContent(), 'cancelled');
    assert.equal(await page.locator(`${pldRow} .row-error`).count(), 0, 'a cancellation is not an error');
    await waitForAllSections(page);

    // After the cancel, the numeric method answers again.
    await page.fill('#composition-release-1-count', '10000');
    await page.waitForSelector(`${pldRow}[data-status="done"][data-ok="true"]`);
    const epsilon = Number(await page.locator(`${pldRow} .bound`).getAttribute('data-epsilon'));
    assert.ok(Math.abs(epsilon - kDpSgdReference) / kDpSgdReference < 0.005, `ε = ${epsilon}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a new input cancels the stale computation and its own result appears', kTimeout, async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await countTerminatedWorkers(page);
    await holdSlowRequests(page);
    await page.goto(`${session.url}#v=1&composition.kind=subsampled_gaussian&composition.count=${kSlowCount}`);
    await page.waitForSelector(`${pldStatus}[data-state="running"]`);
    assert.equal(await page.evaluate(() => window.terminatedWorkers), 0);
    await page.fill('#composition-release-1-count', '10000');
    await page.waitForSelector(`${pldRow}[data-status="done"][data-ok="true"]`);
    await waitForAllSections(page);
    assert.equal(await page.locator(pldStatus).getAttribute('data-state'), 'done');
    assert.match(await page.locator('[data-results="composition"] caption').first().textContent(), /^10000 × /);
    const epsilon = Number(await page.locator(`${pldRow} .bound`).getAttribute('data-epsilon'));
    assert.ok(Math.abs(epsilon - kDpSgdReference) / kDpSgdReference < 0.005, `ε = ${epsilon}`);
    assert.ok((await page.evaluate(() => window.terminatedWorkers)) >= 1, 'the stale computation was stopped');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
