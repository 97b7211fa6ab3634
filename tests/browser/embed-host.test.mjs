// Embedding leaves the host page alone: a generated documentation page (a Sphinx-like page, long
// text above the calculator, of another origin) that embeds a section as a frame in embed mode, or
// as the <dp-calculator> element, keeps its scroll position at the top and the keyboard focus in its
// own document, 2 s after the calculator has answered. The element's dpcalc:result event bubbles
// and is composed: a listener on the document hears it, and so does one on a component whose
// shadow root holds the element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { sessionForFile } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };

/** Serves `html` at / on another port of 127.0.0.1 (another origin than the calculator's). */
function serveHost(html) {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
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

/** A page as Sphinx generates it: a sidebar, a title and forty paragraphs of text above `body`. */
function sphinxPage(body) {
  const paragraphs = Array.from(
    { length: 40 },
    (_, i) =>
      `<p>Paragraph ${i + 1}. Differential privacy bounds what any analysis reveals about one person; ` +
      'this section of the documentation explains how the budget of the release was accounted for, ' +
      'with the calculator below for the reader to try other settings.</p>',
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Privacy accounting — docs</title></head>
<body><div class="sphinxsidebar"><ul><li><a href="#accounting">Accounting</a></li></ul></div>
<div class="body" role="main"><section id="accounting"><h1>Privacy accounting</h1>
${paragraphs}
${body}
</section></div></body></html>`;
}

/** Opens `html` in a fresh 1280 × 800 page; returns { page, context, problems }. */
async function openHost(host, initScript = null) {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  if (initScript) await page.addInitScript(initScript);
  const problems = [];
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(host.url);
  return { page, context, problems };
}

/** The host's scroll position and where its focus is: { scrollY, active (tag of document.activeElement) }. */
const hostState = (page) =>
  page.evaluate(() => ({ scrollY: window.scrollY, active: document.activeElement?.tagName ?? null }));

test('a frame in embed mode below a page of text scrolls nothing and takes no focus', kTimeout, async () => {
  const host = await serveHost(
    sphinxPage(
      `<iframe src="${session.url}?embed=1#/group?v=0.2.0&k=8&epsilon=1&delta=1e-6" title="dpcalc: Group privacy" width="100%" height="900"></iframe>
<script src="${session.url}dpcalc-frame.js" defer></script>`,
    ),
  );
  const { page, context, problems } = await openHost(host);
  try {
    const frame = page.frameLocator('iframe');
    await frame.locator('[data-results="group"][data-ready="true"]:not([aria-busy])').waitFor();
    await frame.locator('[data-attacker="group"][data-ready="true"]:not([aria-busy])').waitFor();
    await page.waitForTimeout(2000);
    const { scrollY, active } = await hostState(page);
    assert.equal(scrollY, 0, 'the host page stays at its top');
    assert.equal(active, 'BODY', 'the focus stays in the host document, not in the frame');
    // The frame is far below the first screen: the test would see a scroll to it.
    const top = await page.locator('iframe').evaluate((frameElement) => frameElement.getBoundingClientRect().top);
    assert.ok(top > 800, `the frame starts below the first screen (${top} px)`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await host.close();
  }
});

test(
  'the element below a page of text scrolls nothing, takes no focus; its result event bubbles out of shadow roots',
  kTimeout,
  async () => {
    const host = await serveHost(
      sphinxPage(`<dp-calculator section="group" k="8" epsilon="1" delta="1e-6"></dp-calculator>
<wrapped-calculator></wrapped-calculator>
<script type="module" src="${session.url}dp-calculator.js"></script>`),
    );
    // The test's own listeners and component, added by the browser before the page's scripts run.
    const { page, context, problems } = await openHost(host, () => {
      window.heard = { document: 0, wrapper: 0 };
      document.addEventListener('dpcalc:result', () => (window.heard.document += 1));
      customElements.define(
        'wrapped-calculator',
        class extends HTMLElement {
          connectedCallback() {
            const calculator = document.createElement('dp-calculator');
            calculator.setAttribute('section', 'convert');
            this.attachShadow({ mode: 'open' }).append(calculator);
            this.addEventListener('dpcalc:result', () => (window.heard.wrapper += 1));
          }
        },
      );
    });
    try {
      await page.locator('dp-calculator[section="group"][data-ready="true"]').waitFor();
      await page.waitForFunction(() => window.heard.wrapper > 0 && window.heard.document >= 2);
      await page.waitForTimeout(2000);
      const { scrollY, active } = await hostState(page);
      assert.equal(scrollY, 0, 'the host page stays at its top');
      assert.equal(active, 'BODY', 'the focus stays where it was');
      const heard = await page.evaluate(() => window.heard);
      assert.ok(heard.document >= 2, `the document hears both elements' results (${JSON.stringify(heard)})`);
      assert.ok(heard.wrapper >= 1, `the component hears its shadow element's result (${JSON.stringify(heard)})`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await host.close();
    }
  },
);

test("the element's errors name its fields by their labels, not the request's", kTimeout, async () => {
  const host = await serveHost(
    sphinxPage(`<dp-calculator section="dpsgd" group-size="0"></dp-calculator>
<script type="module" src="${session.url}dp-calculator.js"></script>`),
  );
  const { page, context, problems } = await openHost(host);
  try {
    await page.locator('dp-calculator[data-ready="true"]').waitFor();
    const errors = await page.locator('dp-calculator td.error').allTextContents();
    assert.ok(errors.length > 0, 'a group of 0 examples is refused');
    for (const error of errors) {
      assert.match(error, /^k must be /, error);
      assert.doesNotMatch(error, /group_size/, error);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await host.close();
  }
});
