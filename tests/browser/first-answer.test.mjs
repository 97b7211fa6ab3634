// The first answers of a load do not wait for a worker: until the closed-form worker has started,
// the page answers closed forms itself from the wasm it compiled (web/client.js, the stopgap), while
// numeric work still waits for its own worker (it needs progress and cancel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionForFile } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };

test(
  'closed forms answer while the worker script is held back; numeric work runs once its worker starts',
  kTimeout,
  async () => {
    const context = await session.browser.newContext({ serviceWorkers: 'block' });
    const held = [];
    await context.route('**/worker.js', (route) => {
      held.push(route);
    });
    try {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(session.url);
      await page.waitForFunction(() => document.querySelector('[data-results="group"]')?.dataset.ready === 'true');
      assert.ok(held.length >= 1, 'the page asked for its worker');
      // Pure ε-DP for a group of k = 4 at ε = 0.5 (the section's defaults): kε = 2 (Dwork & Roth 2014, Thm 2.2).
      assert.equal(
        await page.locator('[data-results="group"] tr[data-row="pure"] .bound').getAttribute('data-epsilon'),
        '2',
      );
      assert.equal(await page.locator('[data-results="group"] tr[data-row="pure"]').getAttribute('data-ok'), 'true');

      await page.click('nav a[href="#/composition"]');
      const pldRow = page.locator('[data-results="composition"] tr[data-row="pld"]');
      await page.waitForSelector('[data-results="composition"] tr[data-row="pld"][data-status="running"]');
      assert.equal(await pldRow.getAttribute('data-status'), 'running', 'the numeric row waits for its worker');
      for (const route of held.splice(0)) await route.continue();
      await context.unroute('**/worker.js');
      await page.waitForSelector('[data-results="composition"] tr[data-row="pld"][data-status="done"][data-ok="true"]');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  },
);
