// Offline use in Firefox: Debian's Firefox ESR, headless, driven over WebDriver
// BiDi by puppeteer-core (Playwright's Firefox is a patched build that cannot drive a stock one).
// The single-file build opened from file:// computes, in its worker and, where workers are refused,
// in the page with a visible note; the plain dist/index.html opened from file:// says why it cannot
// run and what to open instead. No Firefox is no pass: launching it fails the tests.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { collectProblems, repoRoot, reportCspViolations } from './helpers.mjs';

const kTimeout = { timeout: 120_000 };
const kWait = { timeout: 60_000 };
const distFile = (name) =>
  pathToFileURL(path.join(process.env.DPCALC_WEB_ROOT ?? path.join(repoRoot, 'dist'), name)).href;

let browser;
before(async () => {
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
    // puppeteer relaxes this for its own tests; Firefox's default (each file its own origin, so a
    // page on file:// may not load the files next to it) is what people opening the file get.
    extraPrefsFirefox: { 'security.fileuri.strict_origin_policy': true },
  });
});
after(async () => {
  await browser?.close();
});

/** A page that records console errors, uncaught exceptions and CSP violations; `setUp` runs before the page's own scripts. */
async function openFile(name, { setUp } = {}) {
  const page = await browser.newPage();
  const problems = collectProblems(page);
  await page.evaluateOnNewDocument(reportCspViolations);
  if (setUp) await page.evaluateOnNewDocument(setUp);
  await page.goto(distFile(name));
  return { page, problems };
}

/** Waits until the bound of row `row` in section results `section` reads `text` exactly. */
function waitForBound(page, section, row, text) {
  return page.waitForFunction(
    (section, row, text) =>
      document.querySelector(`[data-results="${section}"] tr[data-row="${row}"] .bound`)?.textContent === text,
    kWait,
    section,
    row,
    text,
  );
}

/** The section shown has rendered and is not recomputing (as waitForAllSections in helpers.mjs). */
function waitForSection(page) {
  return page.waitForFunction(() => {
    const regions = [...document.querySelectorAll('section.calculator:not([hidden]) [data-results]')];
    return (
      regions.length > 0 &&
      regions.every((region) => region.dataset.ready === 'true' && !region.hasAttribute('aria-busy')) &&
      !document.querySelector('section.calculator:not([hidden]) .chart-body[data-pending]')
    );
  }, kWait);
}

const count = (page, selector) => page.$$eval(selector, (elements) => elements.length);

/** The group section of the offline page answers its defaults and a typed input, without problems. */
async function checkGroupSection(page, problems) {
  // Defaults: k = 4, ε = 0.5: pure group privacy kε = 2 (Dwork & Roth 2014, Thm 2.2).
  await waitForBound(page, 'group', 'pure', 'ε ≤ 2');
  // Formulas asked for before the first answer is drawn are typeset just after it (formula.js).
  await page.waitForFunction(() => document.querySelectorAll('[data-results="group"] .katex').length >= 8, kWait);
  assert.ok((await count(page, '[data-results="group"] .katex')) >= 8, 'formulas typeset');
  await page.locator('#group-k').fill('6');
  // k = 6, ε = 0.5: kε = 3.
  await waitForBound(page, 'group', 'pure', 'ε ≤ 3');
  assert.match(await page.evaluate(() => location.hash), /[?&]k=6(&|$)/);
  assert.equal(await count(page, '.load-error'), 0);
  assert.deepEqual(problems, []);
}

test(
  'Firefox: dpcalc-offline.html from file:// computes in its worker, the numeric lane too, under its CSP',
  kTimeout,
  async () => {
    const { page, problems } = await openFile('dpcalc-offline.html');
    try {
      await checkGroupSection(page, problems);
      // Firefox starts the classic worker from its blob: URL, so the page needs no fallback note.
      assert.equal(await count(page, '.runtime-note'), 0);
      // The DP-SGD preset on the numeric lane: noise multiplier 1, q = 0.01, 10⁴ steps, δ = 1e-5:
      // ε ≈ 6.19 (the reference value, dp_accounting's PLD accountant at step 1e-4; pld.test.mjs).
      await page.locator('nav a[href="#/composition"]').click();
      await waitForSection(page);
      // The example sits with the numeric method's settings, under "More options".
      await page.locator('[data-more-options="composition"] > summary').click();
      await page.locator('#composition button[data-preset]').click();
      const bound = '[data-results="composition"] tr[data-row="pld"] .bound';
      await page.waitForFunction(
        (bound) => /^ε ≤ 6\.\d+ at δ = 1 × 10⁻⁵$/.test(document.querySelector(bound)?.textContent),
        kWait,
        bound,
      );
      await waitForSection(page);
      const epsilon = Number(await page.$eval(bound, (element) => element.dataset.epsilon));
      assert.ok(Math.abs(epsilon - 6.19) / 6.19 < 0.005, `ε = ${epsilon}`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  },
);

test('Firefox: dpcalc-offline.html where workers are refused computes in the page and says so', kTimeout, async () => {
  // As under a policy that forbids workers: the constructor throws, as browsers do for a refused URL.
  const refuseWorkers = () => {
    window.Worker = function Worker() {
      throw new DOMException('Workers are refused here.', 'SecurityError');
    };
  };
  const { page, problems } = await openFile('dpcalc-offline.html', { setUp: refuseWorkers });
  try {
    await checkGroupSection(page, problems);
    const note = await page.$eval('.runtime-note', (element) => ({
      text: element.textContent,
      visible: element.checkVisibility(),
    }));
    assert.equal(note.visible, true);
    assert.match(note.text, /runs in the page itself/);
  } finally {
    await page.close();
  }
});

test('Firefox: dist/index.html from file:// says it cannot run there and what to open instead', kTimeout, async () => {
  const { page } = await openFile('index.html');
  try {
    const alert = await page.waitForSelector('.load-error[role="alert"]', { ...kWait, visible: true });
    const text = await alert.evaluate((element) => element.textContent);
    assert.match(text, /cannot run from a file/);
    assert.match(text, /dpcalc-offline\.html/);
    assert.match(text, /http\.server|sirv/);
    // Firefox refuses the page's modules from file://, so nothing computed behind the message.
    assert.equal(await count(page, '[data-results]'), 0);
  } finally {
    await page.close();
  }
});
