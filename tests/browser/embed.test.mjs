// Embed mode: the snippet the page offers, pasted into a page of another origin whose
// Content-Security-Policy refuses inline scripts, shows one section without the page around it, and
// the iframe follows the height the section posts (through dpcalc-frame.js, a file, not inline code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { goToSection, openPage, sessionForFile } from './helpers.mjs';

const session = sessionForFile();

/** Serves `html` at / on another port of 127.0.0.1 (another origin than the calculator's), under `csp`. */
function serveParent(html, csp) {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
    response.end(html);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

test(
  'an embedded section posts its height to a parent of another origin, which sizes the iframe',
  { timeout: 120_000 },
  async () => {
    const opened = await openPage(session, { hash: '#/kmeans' });
    let snippet;
    try {
      await goToSection(opened.page, 'kmeans');
      await opened.page.click('#kmeans .embed-snippet summary');
      await opened.page.waitForFunction(() => document.querySelector('#kmeans .embed-snippet code').textContent);
      snippet = await opened.page.locator('#kmeans .embed-snippet code').textContent();
    } finally {
      await opened.context.close();
    }
    assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1#\/kmeans\?v=0\.3\.0"/);
    assert.match(snippet, /<script src="http:\/\/127\.0\.0\.1:\d+\/dpcalc-frame\.js" defer><\/script>$/);
    assert.doesNotMatch(snippet, /<script>/, 'no inline script');
    // A strict policy: scripts and frames from dpcalc's origin only, nothing inline.
    const parent = await serveParent(
      `<!doctype html><html lang="en"><title>A blog post</title><body><h1>My post</h1>${snippet}</body></html>`,
      `default-src 'none'; script-src ${session.origin}; frame-src ${session.origin}`,
    );
    assert.notEqual(new URL(parent.url).origin, session.origin);
    // The parent's own context: the calculator's pages refuse requests to any other origin.
    const context = await session.browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    // The test's own recorder of the messages, injected by the browser (not subject to the policy).
    await page.addInitScript(() => {
      window.heights = [];
      addEventListener('message', (event) => window.heights.push({ origin: event.origin, data: event.data }));
    });
    const problems = [];
    page.on('console', (message) => {
      if (['error', 'warning'].includes(message.type())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(parent.url);
      const frame = page.frameLocator('iframe');
      await frame.locator('[data-results="kmeans"][data-ready="true"]:not([aria-busy])').waitFor();
      await frame.locator('[data-attacker="kmeans"][data-ready="true"]:not([aria-busy])').waitFor();
      // Formulas and plots may still be drawing: the document, the height it posted last and the
      // iframe must come to agree, within 10 s.
      let [firstHeight, frameHeight, innerHeight] = [0, -1, -1];
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await page.waitForTimeout(100)) {
        [firstHeight, frameHeight] = await page.evaluate(() => [
          window.heights.at(-1)?.data.height ?? 0,
          document.querySelector('iframe').getBoundingClientRect().height,
        ]);
        innerHeight = await frame.locator('html').evaluate((html) => html.getBoundingClientRect().height);
        if (firstHeight > 200 && Math.abs(frameHeight - firstHeight) < 1 && Math.abs(innerHeight - firstHeight) <= 1) {
          break;
        }
      }
      const messages = await page.evaluate(() => window.heights);
      assert.ok(
        messages.length > 0 &&
          messages.every(({ origin, data }) => origin === session.origin && data.type === 'dpcalc:height'),
        JSON.stringify(messages),
      );
      // One section, no page chrome.
      assert.equal(await frame.locator('.page-header').isVisible(), false);
      assert.equal(await frame.locator('nav').isVisible(), false);
      assert.equal(await frame.locator('section#kmeans').isVisible(), true);
      assert.ok(
        firstHeight > 200 && Math.abs(frameHeight - firstHeight) < 1 && Math.abs(innerHeight - firstHeight) <= 1,
        `posted ${firstHeight}, iframe ${frameHeight}, document ${innerHeight}`,
      );

      // More iterations, more rows: the section grows and the iframe with it.
      await frame.locator('#kmeans-iterations').fill('12');
      await frame.locator('[data-results="kmeans"] tr[data-iteration="12"]').waitFor();
      await page.waitForFunction((previous) => {
        const posted = window.heights.at(-1)?.data.height;
        return (
          posted > previous + 100 &&
          Math.abs(document.querySelector('iframe').getBoundingClientRect().height - posted) < 1
        );
      }, firstHeight);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await parent.close();
    }
  },
);
