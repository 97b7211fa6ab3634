// Offline use: the single-file build opened from file:// computes; the plain
// dist/index.html opened from file:// says why it cannot and what to open instead; a page visited
// once keeps computing after a reload with the network cut (service worker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  collectProblems,
  repoRoot,
  reportCspViolations,
  sessionForFile,
  waitForAllSections,
  waitForBound,
} from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };
const distFile = (name) =>
  pathToFileURL(path.join(process.env.DPCALC_WEB_ROOT ?? path.join(repoRoot, 'dist'), name)).href;

/** A page that records console errors and CSP violations; no network besides what the test allows. */
async function pageIn(context) {
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.addInitScript(reportCspViolations);
  return { page, problems };
}

test('dpcalc-offline.html opened from file:// computes, under its own CSP', kTimeout, async () => {
  const context = await session.browser.newContext();
  try {
    const { page, problems } = await pageIn(context);
    await page.goto(distFile('dpcalc-offline.html'));
    await waitForAllSections(page);
    // Defaults: k = 4, ε = 0.5: pure group privacy kε = 2 (Dwork & Roth 2014, Thm 2.2).
    await waitForBound(page, 'group', 'pure', 'ε ≤ 2');
    // Formulas asked for before the first answer is drawn are typeset just after it (formula.js);
    // most rows are examples nobody set, under "Compare with".
    await page.click('[data-results="group"] details.compare-with > summary');
    await page.locator('[data-results="group"] .katex').nth(7).waitFor();
    assert.ok((await page.locator('[data-results="group"] .katex').count()) >= 8, 'formulas typeset');
    assert.equal(await page.locator('.load-error').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('dist/index.html opened from file:// says it cannot run there and what to open instead', kTimeout, async () => {
  const context = await session.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(distFile('index.html'));
    const alert = page.locator('.load-error[role="alert"]');
    await alert.waitFor();
    const text = await alert.textContent();
    assert.match(text, /cannot run from a file/);
    assert.match(text, /dpcalc-offline\.html/);
    assert.match(text, /http\.server|sirv/);
  } finally {
    await context.close();
  }
});

test('a visited page computes again after a reload with the network cut (service worker)', kTimeout, async () => {
  const context = await session.browser.newContext({ serviceWorkers: 'allow' });
  try {
    const { page, problems } = await pageIn(context);
    await page.goto(session.url);
    await waitForAllSections(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
        );
      }
    });
    await context.setOffline(true);
    await page.fill('#group-k', '6'); // state in the address survives the reload
    await waitForBound(page, 'group', 'pure', 'ε ≤ 3');
    await page.reload();
    await waitForAllSections(page);
    // k = 6, ε = 0.5: kε = 3.
    await waitForBound(page, 'group', 'pure', 'ε ≤ 3');
    assert.equal(await page.inputValue('#group-k'), '6');
    const failures = problems.filter((text) => !/ERR_INTERNET_DISCONNECTED/.test(text));
    assert.deepEqual(failures, []);
  } finally {
    await context.close();
  }
});
