// Shared set-up of the page tests: a static server on dist/ (or DPCALC_WEB_ROOT), Debian's
// Chromium headless with a fresh profile, and pages that record console errors, CSP violations
// and every request to another origin.
import { after, before } from 'node:test';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const resultsDir = path.join(repoRoot, 'test-results');

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts the server and the browser; `close()` stops both. */
async function startSession() {
  const server = await startServer({ root: process.env.DPCALC_WEB_ROOT ?? path.join(repoRoot, 'dist'), port: 0 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  return {
    url: server.url,
    origin: new URL(server.url).origin,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * The session of a whole test file: started before its first test, closed after its last. Its
 * fields (`url`, `origin`, `browser`) are there once the file's tests run.
 */
export function sessionForFile() {
  const session = {};
  before(async () => {
    Object.assign(session, await startSession());
  });
  after(async () => {
    await session.close?.();
  });
  return session;
}

/** The core's schema (mechanisms, ops), read from the built JS API in Node, as the page reads it in the browser. */
export async function coreSchema() {
  const root = process.env.DPCALC_WEB_ROOT ?? path.join(repoRoot, 'dist');
  const { createCalculator } = await import(pathToFileURL(path.join(root, 'dpcalc.js')).href);
  return (await createCalculator()).schema();
}

/**
 * A fresh context and page (`bypassCSP`: let the test inject a script, e.g. axe-core); `problems` collects console errors, uncaught exceptions, CSP
 * violations and requests to any origin but the server's (those are aborted).
 */
export async function openPage(
  session,
  { colorScheme = 'light', hash = '', viewport = { width: 1280, height: 900 }, bypassCSP = false } = {},
) {
  const context = await session.browser.newContext({ colorScheme, viewport, bypassCSP });
  const problems = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === session.origin || url.startsWith('data:') || url.startsWith('blob:'))
      return route.continue();
    problems.push(`request to another origin: ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  await page.addInitScript(reportCspViolations);
  await page.goto(session.url + hash);
  await waitForAllSections(page);
  return { page, context, problems };
}

const axePath = path.join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js');

/**
 * axe-core's violations on the page as it is (or inside the element `selector` matches), one line each:
 * rule, impact and the first three targets. Loads axe-core into the page once (open it with `bypassCSP`).
 */
export async function axeViolations(page, selector = null) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(
    async (scope) =>
      (await window.axe.run(scope ? document.querySelector(scope) : document, { resultTypes: ['violations'] }))
        .violations,
    selector,
  );
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
}

/** The section shown has rendered, is not recomputing, and its charts are drawn (Plot loads on first use). */
export async function waitForAllSections(page) {
  await page.waitForFunction(() => {
    const regions = [...document.querySelectorAll('section.calculator:not([hidden]) [data-results]')];
    return (
      // The other sections' code has been fetched (web/app/main.js), so a reload aborts no request.
      document.documentElement.hasAttribute('data-sections-loaded') &&
      regions.length > 0 &&
      regions.every((region) => region.dataset.ready === 'true' && !region.hasAttribute('aria-busy')) &&
      !document.querySelector('section.calculator:not([hidden]) .chart-body[data-pending]')
    );
  });
}

/** Opens section `name`'s "More options" (the inputs its question does not need first), as a person would. */
export async function openMoreOptions(page, name) {
  const details = page.locator(`[data-more-options="${name}"]`);
  if (!(await details.evaluate((element) => element.open))) await details.locator(':scope > summary').click();
}

/** Goes to section `name` by its link in the nav, as a person would, and waits for its results. */
export async function goToSection(page, name) {
  await page.click(`nav a[href="#/${name}"]`);
  await page.waitForSelector(`section#${name}:not([hidden])`);
  await waitForAllSections(page);
}

/** Waits until the bound of a method row (section results `section`, row `row`) reads `text` exactly. */
export async function waitForBound(page, section, row, text) {
  await page.waitForFunction(
    ({ section, row, text }) => {
      const bound = document.querySelector(`[data-results="${section}"] tr[data-row="${row}"] .bound`);
      return bound?.textContent === text;
    },
    { section, row, text },
  );
}

export async function boundText(page, section, row) {
  return page.locator(`[data-results="${section}"] tr[data-row="${row}"] .answer`).first().textContent();
}

/** Runs in a page before its own scripts: logs every Content-Security-Policy violation as a console error. */
export function reportCspViolations() {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
  });
}

/**
 * The console errors and uncaught exceptions of `page` (a Playwright or a Puppeteer page: both name
 * these events alike), collected into the returned array as they happen.
 */
export function collectProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}
