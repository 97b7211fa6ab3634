// The first answers of a load wait neither for a worker nor for the whole wasm module: until the
// closed-form worker has started, the page answers closed forms itself from the first part of the
// split module (web/client.js, the stopgap; scripts/split-wasm.mjs), and fetches the rest after them.
// A link to another section fetches both parts at once (web/boot.js) and answers from the two linked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionForFile } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };

/**
 * A fresh context (no service worker) whose requests for the files matching `heldBack` wait in
 * `held` until continued, and a page in it: `asked` lists every path requested, `errors` the
 * page's uncaught errors.
 */
async function pageHolding(heldBack) {
  const context = await session.browser.newContext({ serviceWorkers: 'block' });
  const held = [];
  const asked = [];
  context.on('request', (request) => asked.push(new URL(request.url()).pathname));
  for (const pattern of heldBack) await context.route(pattern, (route) => held.push(route));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, held, asked, errors };
}

/** The ops of the requests that missed on the module's first part (web/client.js marks each). */
const missedOps = (page) =>
  page.evaluate(() => performance.getEntriesByName('dpcalc:first-part-missed').map((mark) => mark.detail));

test(
  'the first answers come from the first part of the module alone, before the worker and the rest arrive',
  kTimeout,
  async () => {
    const { context, page, held, asked, errors } = await pageHolding(['**/worker.js', '**/dpcalc-rest.wasm']);
    try {
      await page.goto(session.url);
      await page.waitForFunction(() => document.querySelector('[data-results="group"]')?.dataset.ready === 'true');
      // Pure ε-DP for a group of k = 4 at ε = 0.5 (the section's defaults): kε = 2 (Dwork & Roth 2014, Thm 2.2).
      assert.equal(
        await page.locator('[data-results="group"] tr[data-row="pure"] .bound').getAttribute('data-epsilon'),
        '2',
      );
      const rows = page.locator('[data-results="group"] tr[data-row]');
      assert.ok((await rows.count()) >= 4);
      for (const ok of await rows.evaluateAll((all) => all.map((row) => row.dataset.ok))) assert.equal(ok, 'true');
      // No first request needed code outside dpcalc-first.wasm (scripts/first-answers.mjs lists them):
      // the table, its plots and the attacker panel.
      await page.waitForSelector('[data-attacker="group"][data-ready="true"] [data-attacker-sentences]');
      assert.deepEqual(await missedOps(page), []);
      assert.ok(!asked.includes('/dpcalc.wasm'), 'the page never loads the whole module');

      // Closed forms whose code is in the rest wait for the worker, then every row answers.
      await page.click('nav a[href="#/composition"]');
      for (const route of held.splice(0)) await route.continue();
      await context.unroute('**/worker.js');
      await context.unroute('**/dpcalc-rest.wasm');
      await page.waitForSelector('[data-results="composition"] tr[data-row="pld"][data-status="done"][data-ok="true"]');
      assert.equal(
        await page.locator('[data-results="composition"] tr[data-row="basic"]').getAttribute('data-ok'),
        'true',
      );
      assert.ok(asked.includes('/dpcalc-rest.wasm'));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'a link to another section fetches both parts at once and answers its closed forms in the page, before the worker',
  kTimeout,
  async () => {
    const { context, page, held, asked, errors } = await pageHolding(['**/worker.js']);
    try {
      await page.goto(`${session.url}#/convert`);
      await page.waitForFunction(() => document.querySelector('[data-results="convert"]')?.dataset.ready === 'true');
      const rows = page.locator('[data-results="convert"] tr[data-row]');
      assert.ok((await rows.count()) >= 2);
      for (const ok of await rows.evaluateAll((all) => all.map((row) => row.dataset.ok))) assert.equal(ok, 'true');
      // Answered by the page from the two parts linked (no worker can be up: its script is held back),
      // without first trying the first part alone.
      assert.deepEqual(await missedOps(page), []);
      assert.ok(asked.includes('/dpcalc-first.wasm') && asked.includes('/dpcalc-rest.wasm'));
      assert.ok(!asked.includes('/dpcalc.wasm'), 'the page never loads the whole module');
      for (const route of held.splice(0)) await route.continue();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  },
);
